import sys
from collections import deque
d=sys.stdin.buffer.read().split();n,m=int(d[0]),int(d[1])
g=[[] for _ in range(n+1)];deg=[0]*(n+1)
for i in range(m):
    u,v=int(d[2+2*i]),int(d[3+2*i]);g[u].append(v);deg[v]+=1
h=deque(i for i in range(1,n+1) if deg[i]==0);r=[]
while h:
    u=h.popleft();r.append(u)
    for v in g[u]:
        deg[v]-=1
        if deg[v]==0:h.append(v)
print(' '.join(map(str,r)) if len(r)==n else "IMPOSSIBLE")
