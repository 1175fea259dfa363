import sys
n,s,*c=map(int,sys.stdin.read().split())
I=10**9;d=[0]+[I]*s
for x in set(c):
    for a in range(x,s+1):
        if d[a-x]+1<d[a]:d[a]=d[a-x]+1
print(d[s] if d[s]<I else -1)
