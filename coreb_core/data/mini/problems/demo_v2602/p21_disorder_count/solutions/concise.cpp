#include <bits/stdc++.h>
using namespace std;
int n,m;vector<int>t;
int main(){scanf("%d",&n);vector<int>a(n);for(auto&x:a)scanf("%d",&x);
vector<int>s=a;sort(s.begin(),s.end());s.erase(unique(s.begin(),s.end()),s.end());m=s.size();t.assign(m+1,0);
long long r=0;for(int i=0;i<n;i++){int k=lower_bound(s.begin(),s.end(),a[i])-s.begin()+1;long long q=0;
for(int j=k;j>0;j-=j&-j)q+=t[j];r+=i-q;for(;k<=m;k+=k&-k)t[k]++;}
printf("%lld\n",r);}
