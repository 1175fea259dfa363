#include <bits/stdc++.h>
using namespace std;
int main(){int n;scanf("%d",&n);vector<long long>d(n+1,LLONG_MAX);
for(int i=0;i<n;i++){long long x;scanf("%lld",&x);*lower_bound(d.begin(),d.end(),x)=x;}
printf("%d\n",(int)(lower_bound(d.begin(),d.end(),LLONG_MAX)-d.begin()));}
