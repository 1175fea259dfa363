import sys
from bisect import bisect_right
d=sys.stdin.buffer.read().split()
n=int(d[0]);t=[]
for x in map(int,d[1:n+1]):
    i=bisect_right(t,x)
    if i==len(t):t.append(x)
    else:t[i]=x
print(len(t))
