import sys
n,s,*c=map(int,sys.stdin.read().split())
k=0
for x in sorted(set(c),reverse=True):
    k+=s//x;s%=x
print(k if s==0 else -1)
