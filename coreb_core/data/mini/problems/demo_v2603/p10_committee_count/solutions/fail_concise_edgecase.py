import sys
d=list(map(int,sys.stdin.buffer.read().split()))
q=d[0];P=10**9+7
Q=[(d[1+2*i],d[2+2*i]) for i in range(q)]
N=max(n for n,k in Q)+1
f=[1]*(N+1)
for i in range(1,N+1):f[i]=f[i-1]*i%P
g=[1]*(N+1);g[N]=pow(f[N],P-2,P)
for i in range(N,0,-1):g[i-1]=g[i]*i%P
print("\n".join(str(f[n]*g[k]%P*g[n-k]%P) for n,k in Q))
