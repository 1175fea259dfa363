import sys
from collections import deque
d=sys.stdin.buffer.read().split();n,m=int(d[0]),int(d[1]);M=10**9+7
g=[[] for _ in range(n+1)];deg=[0]*(n+1)
for i in range(m):
    u,v=int(d[2+2*i]),int(d[3+2*i]);g[u].append(v);deg[v]+=1
f=[0]*(n+1);f[1]=1
q=deque(i for i in range(1,n+1) if deg[i]==0)
while q:
    u=q.popleft()
    for v in g[u]:
        f[v]=(f[v]+f[u])%M;deg[v]-=1
        if deg[v]==0:q.append(v)
print(f[n])
