#include <bits/stdc++.h>
using namespace std;
int main(){int n;long long k;scanf("%d %lld",&n,&k);unordered_map<long long,long long>c;c.reserve(n*2+1);long long r=0;
for(int i=0;i<n;i++){long long x;scanf("%lld",&x);auto it=c.find(k-x);if(it!=c.end())r+=it->second;c[x]++;}
printf("%lld\n",r);}
