import sys
d=list(map(int,sys.stdin.read().split()));n=d[0]
j=sorted(zip(d[2::2][:n],d[1::2][:n]),key=lambda p:p[1])
c=0;b=None
for e,t in j:
    c+=t;l=c-e
    if b is None or l>b:b=l
print(b)
