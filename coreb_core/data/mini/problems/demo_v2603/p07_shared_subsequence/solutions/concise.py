import sys
a,b=sys.stdin.read().split()[:2]
m=len(b)
dp=[0]*(m+1)
for c in a:
    d=0
    for j in range(1,m+1):
        t=dp[j]
        dp[j]=d+1 if c==b[j-1] else max(dp[j],dp[j-1])
        d=t
print(dp[m])
