#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
int n,D;vector<ll>w;
bool ok(ll c){int d=1;ll s=0;for(ll x:w){if(s+x>c){d++;s=0;}s+=x;}return d<=D;}
int main(){scanf("%d %d",&n,&D);w.resize(n);ll lo=0,hi=0;for(auto&x:w){scanf("%lld",&x);lo=max(lo,x);hi+=x;}
while(lo<hi){ll m=(lo+hi)/2;if(ok(m))hi=m;else lo=m+1;}printf("%lld\n",lo);}
