import sys
s,t=sys.stdin.read().split()[:2]
n,m=len(s),len(t)
d=[[0]*(m+1) for _ in range(n+1)]
for j in range(m+1):d[0][j]=j
for i in range(1,n+1):
    for j in range(1,m+1):
        d[i][j]=min(d[i-1][j]+1,d[i][j-1]+1,d[i-1][j-1]+(s[i-1]!=t[j-1]))
print(d[n][m])
