import sys
d=sys.stdin.buffer.read().split()
n,q=int(d[0]),int(d[1])
a=[0]+[int(x) for x in d[2:2+n]]
t=[0]*(n+1)
for i in range(1,n+1):
    t[i]+=a[i];j=i+(i&-i)
    if j<=n:t[j]+=t[i]
def s(i):
    r=0
    while i>0:r+=t[i];i-=i&-i
    return r
o=[];p=2+n
for _ in range(q):
    c,x,y=int(d[p]),int(d[p+1]),int(d[p+2]);p+=3
    if c==1:
        v=y-a[x];a[x]=y
        while x<=n:t[x]+=v;x+=x&-x
    else:o.append(s(y)-s(x-1))
print("\n".join(map(str,o)))
