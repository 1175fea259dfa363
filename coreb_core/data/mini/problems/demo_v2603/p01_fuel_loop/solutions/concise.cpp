#include <bits/stdc++.h>
using namespace std;
int main(){int n;scanf("%d",&n);vector<long long>g(n),c(n);for(auto&x:g)scanf("%lld",&x);for(auto&x:c)scanf("%lld",&x);
long long t=0,s=0;int st=0;for(int i=0;i<n;i++){long long x=g[i]-c[i];t+=x;s+=x;if(s<0){s=0;st=i+1;}}
printf("%d\n",t>=0?st+1:-1);}
