import sys
v=list(map(int,sys.stdin.read().split()));n,D=v[0],v[1];w=v[2:2+n]
def ok(c):
    d,s=1,0
    for x in w:
        if s+x>c:d+=1;s=0
        s+=x
    return d<=D
lo,hi=max(w),sum(w)
while lo<hi:
    m=(lo+hi)//2
    if ok(m):hi=m
    else:lo=m+1
print(lo)
