import sys
from collections import deque
d=sys.stdin.buffer.read().split();n,k=int(d[0]),int(d[1]);a=list(map(int,d[2:2+n]))
q=deque();r=[]
for i,x in enumerate(a):
    while q and a[q[-1]]<=x:q.pop()
    q.append(i)
    if q[0]<i-k:q.popleft()
    if i>=k-1:r.append(a[q[0]])
print(*r)
