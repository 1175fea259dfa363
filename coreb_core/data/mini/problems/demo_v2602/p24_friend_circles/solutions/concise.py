import sys
d=sys.stdin.buffer.read().split();n,m=int(d[0]),int(d[1]);p=list(range(n+1));g=n;o=[]
def f(x):
    while p[x]!=x:p[x]=p[p[x]];x=p[x]
    return x
for k in range(m):
    a,b=int(d[2+2*k]),int(d[3+2*k]);x,y=f(a),f(b)
    if x!=y:p[x]=y;g-=1
    o.append(g)
print('\n'.join(map(str,o)))
