import sys
d=sys.stdin.buffer.read().split();n,m=int(d[0]),int(d[1])
g=[[] for _ in range(n+1)]
for i in range(m):
    u,v=int(d[2+2*i]),int(d[3+2*i]);g[u].append(v);g[v].append(u)
c=[-1]*(n+1);ok=True
for s in [1]:
    if c[s]>=0:continue
    c[s]=0;q=[s]
    for u in q:
        for v in g[u]:
            if c[v]<0:c[v]=c[u]^1;q.append(v)
            elif c[v]==c[u]:ok=False
print("YES" if ok else "NO")
