#include <bits/stdc++.h>
using namespace std;
typedef unsigned long long u;typedef long long ll;const ll M=1000000007;
ll pw(ll b,ll e){ll r=1;b%=M;while(e){if(e&1)r=r*b%M;b=b*b%M;e>>=1;}return r;}
int main(){int t;scanf("%d",&t);while(t--){ll a,n;scanf("%lld %lld",&a,&n);a%=M;
if(a==1)printf("%lld\n",(n%M+1)%M);else printf("%lld\n",(pw(a,n+1)-1+M)%M*pw((a-1+M)%M,M-2)%M);}}
