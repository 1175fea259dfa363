import sys
d=sys.stdin.read().split();n=int(d[0]);a=list(map(int,d[1:1+n]))
p=q=0
for x in a:p,q=q,max(q,p+x)
print(q)
