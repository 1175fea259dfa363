import sys
t,p=sys.stdin.read().split()[:2];s=p+'#'+t;m=len(p);f=[0]*len(s);c=0
for i in range(1,len(s)):
    k=f[i-1]
    while k and s[i]!=s[k]:k=f[k-1]
    if s[i]==s[k]:k+=1
    f[i]=k;c+=k==m
print(c)
