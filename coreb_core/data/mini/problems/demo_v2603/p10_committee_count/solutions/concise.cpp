#include <bits/stdc++.h>
using namespace std;
const int N=1000001;const long long P=1e9+7;long long f[N],g[N];
long long pw(long long b,long long e){long long r=1;b%=P;for(;e;e>>=1,b=b*b%P)if(e&1)r=r*b%P;return r;}
int main(){f[0]=1;for(int i=1;i<N;i++)f[i]=f[i-1]*i%P;g[N-1]=pw(f[N-1],P-2);for(int i=N-1;i>0;i--)g[i-1]=g[i]*i%P;
int q;scanf("%d",&q);while(q--){int n,k;scanf("%d %d",&n,&k);printf("%lld\n",k>n?0:f[n]*g[k]%P*g[n-k]%P);}}
