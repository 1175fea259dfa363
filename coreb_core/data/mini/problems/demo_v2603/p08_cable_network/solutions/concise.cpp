#include <bits/stdc++.h>
using namespace std;
int p[100005];
int f(int x){return p[x]==x?x:p[x]=f(p[x]);}
int main(){int n,m;scanf("%d %d",&n,&m);vector<array<int,3>>e(m);
for(auto&x:e)scanf("%d %d %d",&x[1],&x[2],&x[0]);sort(e.begin(),e.end());
iota(p,p+n+1,0);long long s=0;int c=0;
for(auto&x:e){int a=f(x[1]),b=f(x[2]);if(a!=b){p[a]=b;s+=x[0];c++;}}
printf("%lld\n",c==n-1?s:-1LL);}
