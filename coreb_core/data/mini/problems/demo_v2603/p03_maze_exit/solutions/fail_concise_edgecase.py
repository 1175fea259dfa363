import sys
from collections import deque
d=sys.stdin.read().split();h,w=int(d[0]),int(d[1]);g=d[2:2+h]
for i in range(h):
    for j in range(w):
        if g[i][j]=='S':s=(i,j)
        elif g[i][j]=='E':e=(i,j)
D=[[-1]*w for _ in range(h)];D[s[0]][s[1]]=0;q=deque([s])
while q:
    x,y=q.popleft()
    for a,b in((x+1,y),(x-1,y),(x,y+1),(x,y-1)):
        if a<h and b<w and g[a][b]!='#' and D[a][b]<0:D[a][b]=D[x][y]+1;q.append((a,b))
print(D[e[0]][e[1]])
