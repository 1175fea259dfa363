import sys,heapq
def main():
    d=sys.stdin.buffer.read().split();n,m=int(d[0]),int(d[1])
    g=[[] for _ in range(n+1)]
    for i in range(m):
        u,v,w=int(d[2+3*i]),int(d[3+3*i]),int(d[4+3*i])
        g[u].append((v,w));g[v].append((u,w))
    D=[-1]*(n+1);D[1]=0;h=[(0,1)]
    while h:
        x,u=heapq.heappop(h)
        if x>D[u]:continue
        for v,w in g[u]:
            if D[v]<0 or x+w<D[v]:D[v]=x+w;heapq.heappush(h,(x+w,v))
    print(D[n])
main()
