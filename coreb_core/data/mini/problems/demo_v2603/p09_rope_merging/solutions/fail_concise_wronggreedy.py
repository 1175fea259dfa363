import sys
d=list(map(int,sys.stdin.read().split()))
h=sorted(d[1:1+d[0]])
t=0
s=h[0]
for x in h[1:]:
    s+=x
    t+=s
print(t)
