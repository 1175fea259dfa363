#include <bits/stdc++.h>
using namespace std;
int main(){int n;scanf("%d",&n);vector<long long>a(n),r(n,-1);for(auto&x:a)scanf("%lld",&x);vector<int>s;
for(int i=0;i<n;i++){while(!s.empty()&&a[s.back()]<a[i]){r[s.back()]=a[i];s.pop_back();}s.push_back(i);}
for(int i=0;i<n;i++)printf("%lld%c",r[i],i+1<n?' ':'\n');}
