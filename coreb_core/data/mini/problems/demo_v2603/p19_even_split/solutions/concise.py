import sys
d=list(map(int,sys.stdin.read().split()));n=d[0];a=d[1:n+1];t=sum(a)
b=1
for x in a:b|=b<<x
print("YES" if t%2==0 and b>>(t//2)&1 else "NO")
