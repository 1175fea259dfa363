import sys
d=list(map(int,sys.stdin.buffer.read().split()));n=d[0];a=d[1:n+1]
s=sorted(set(a));rk={v:i+1 for i,v in enumerate(s)};m=len(s);t=[0]*(m+1);r=0
for i,x in enumerate(a):
    k=rk[x];q=0;j=k-1
    while j>0:q+=t[j];j-=j&-j
    r+=i-q
    while k<=m:t[k]+=1;k+=k&-k
print(r)
