import sys
d=sys.stdin.read().split();n,W=int(d[0]),int(d[1])
f=[0]*(W+1)
for i in range(n):
    w,v=int(d[2+2*i]),int(d[3+2*i])
    for c in range(W,w,-1):
        if f[c-w]+v>f[c]:f[c]=f[c-w]+v
print(f[W])
