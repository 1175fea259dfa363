import sys
from collections import deque
d=sys.stdin.buffer.read().split();n,m,s,k=int(d[0]),int(d[1]),int(d[2]),int(d[3])
g=[[] for _ in range(n+1)]
for i in range(m):
    u,v=int(d[4+2*i]),int(d[5+2*i]);g[u].append(v);g[v].append(u)
D=[-1]*(n+1);D[s]=0;q=deque([s]);c=0
while q:
    u=q.popleft()
    if D[u]>=k:break
    c+=1
    for v in g[u]:
        if D[v]<0:D[v]=D[u]+1;q.append(v)
print(c)
