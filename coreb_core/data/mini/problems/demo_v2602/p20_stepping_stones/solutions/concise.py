import sys
d=list(map(int,sys.stdin.read().split()));n=d[0];a=d[1:n+1]
def f():
    r=e=m=0
    for i in range(n-1):
        m=max(m,i+a[i])
        if i==e:
            if m<=i:return -1
            r+=1;e=m
    return r
print(f())
