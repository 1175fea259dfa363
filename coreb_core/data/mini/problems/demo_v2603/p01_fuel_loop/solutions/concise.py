import sys
d=sys.stdin.read().split();n=int(d[0])
t=s=st=0
for i in range(n):
    x=int(d[1+i])-int(d[1+n+i]);t+=x;s+=x
    if s<0:s=0;st=i+1
print(st+1 if t>=0 else -1)
