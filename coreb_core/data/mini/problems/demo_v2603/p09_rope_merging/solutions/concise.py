import sys,heapq
d=list(map(int,sys.stdin.read().split()))
h=d[1:1+d[0]]
heapq.heapify(h)
t=0
while len(h)>1:
    s=heapq.heappop(h)+heapq.heappop(h)
    t+=s
    heapq.heappush(h,s)
print(t)
