#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
int main(){int n;scanf("%d",&n);vector<ll>a(n);ll g=0;for(ll&x:a)scanf("%lld",&x),g=__gcd(g,x);
printf("%lld %d\n",g,(int)count(a.begin(),a.end(),g));}
