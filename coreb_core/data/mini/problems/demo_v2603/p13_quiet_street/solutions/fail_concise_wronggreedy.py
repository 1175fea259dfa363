import sys
d=sys.stdin.read().split();n=int(d[0]);a=list(map(int,d[1:1+n]))
print(max(sum(a[0::2]),sum(a[1::2])))
