import sys
s=sys.stdin.readline().strip()
n=len(s);pi=[0]*n;k=0
for i in range(1,n):
    while k and s[i]!=s[k]:k=pi[k-1]
    if s[i]==s[k]:k+=1
    pi[i]=k
p=n-pi[-1]
print(p)
