import sys
d=sys.stdin.buffer.read().split();n=int(d[0]);a=list(map(int,d[1:n+1]));r=[-1]*n;s=[]
for i,x in enumerate(a):
    while s and a[s[-1]]<=x:r[s.pop()]=x
    s.append(i)
print(' '.join(map(str,r)))
