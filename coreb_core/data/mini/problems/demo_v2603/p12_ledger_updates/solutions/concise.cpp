#include <bits/stdc++.h>
using namespace std;
typedef long long ll;int n,q;vector<ll>t,a;
void up(int i,ll v){for(;i<=n;i+=i&-i)t[i]+=v;}
ll qs(int i){ll r=0;for(;i>0;i-=i&-i)r+=t[i];return r;}
int main(){scanf("%d %d",&n,&q);t.assign(n+1,0);a.assign(n+1,0);
for(int i=1;i<=n;i++){scanf("%lld",&a[i]);up(i,a[i]);}
while(q--){int c;ll x,y;scanf("%d %lld %lld",&c,&x,&y);
if(c==1){up(x,y-a[x]);a[x]=y;}else printf("%lld\n",qs(y)-qs(x-1));}}
