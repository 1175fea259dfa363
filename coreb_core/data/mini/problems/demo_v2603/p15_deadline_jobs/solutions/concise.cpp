#include <bits/stdc++.h>
using namespace std;
int main(){int n;scanf("%d",&n);vector<pair<long long,long long>>a(n);for(auto&p:a)scanf("%lld %lld",&p.second,&p.first);sort(a.begin(),a.end());long long c=0,b=LLONG_MIN;for(auto&p:a){c+=p.second;b=max(b,c-p.first);}printf("%lld\n",b);}
