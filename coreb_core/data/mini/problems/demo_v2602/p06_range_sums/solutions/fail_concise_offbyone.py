import sys
d=sys.stdin.buffer.read().split();n,q=int(d[0]),int(d[1])
p=[0]*(n+1)
for i in range(n-1):p[i+1]=p[i]+int(d[2+i])
o=[]
for k in range(q):
    l,r=int(d[2+n+2*k]),int(d[3+n+2*k]);o.append(p[r]-p[l-1])
print("\n".join(map(str,o)))
