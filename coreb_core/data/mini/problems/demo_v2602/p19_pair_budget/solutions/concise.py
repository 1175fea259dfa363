import sys
from collections import defaultdict
d=sys.stdin.buffer.read().split()
n,k=int(d[0]),int(d[1])
c=defaultdict(int);r=0
for x in map(int,d[2:2+n]):
    r+=c[k-x];c[x]+=1
print(r)
