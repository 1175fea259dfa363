import sys
d=sys.stdin.buffer.read().split()
n,m=int(d[0]),int(d[1])
e=sorted((int(d[2+3*i+2]),int(d[2+3*i]),int(d[2+3*i+1])) for i in range(m))
p=list(range(n+1))
def f(x):
    while p[x]!=x:
        p[x]=p[p[x]];x=p[x]
    return x
s=c=0
for w,u,v in e:
    a,b=f(u),f(v)
    if a!=b:
        p[a]=b;s+=w;c+=1
print(s if c==n-1 else -1)
