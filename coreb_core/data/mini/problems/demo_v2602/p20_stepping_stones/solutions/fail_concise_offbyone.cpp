#include <bits/stdc++.h>
using namespace std;
int main(){int n;scanf("%d",&n);vector<long long>a(n);for(auto&x:a)scanf("%lld",&x);
long long r=0,e=0,m=0;
for(int i=0;i<n;i++){m=max(m,i+a[i]);if(i==e){if(m<=i){puts("-1");return 0;}r++;e=m;}}
printf("%lld\n",r);}
