import sys,heapq
d=sys.stdin.buffer.read().split();n=int(d[0]);lo=[];hi=[];o=[]
for x in map(int,d[1:1+n]):
    heapq.heappush(lo,-x);heapq.heappush(hi,-heapq.heappop(lo))
    if len(hi)>=len(lo):heapq.heappush(lo,-heapq.heappop(hi))
    o.append(-lo[0])
print("\n".join(map(str,o)))
