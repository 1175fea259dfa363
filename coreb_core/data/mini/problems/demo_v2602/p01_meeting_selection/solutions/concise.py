import sys
d=sys.stdin.buffer.read().split();n=int(d[0])
v=sorted(zip(map(int,d[2:2*n+2:2]),map(int,d[1:2*n+1:2])))
c=t=0
for e,s in v:
    if s>=t:c+=1;t=e
print(c)
