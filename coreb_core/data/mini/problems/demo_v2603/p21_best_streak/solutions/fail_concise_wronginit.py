import sys
d=sys.stdin.read().split();n=int(d[0]);a=list(map(int,d[1:n+1]))
b=c=0
for x in a:
    c=max(x,c+x);b=max(b,c)
print(b)
