#include <bits/stdc++.h>
using namespace std;
const long long M=1e9+7;
int main(){int n,m;scanf("%d %d",&n,&m);vector<vector<int>>g(n+1);vector<int>d(n+1,0);
for(int i=0;i<m;i++){int u,v;scanf("%d %d",&u,&v);g[u].push_back(v);d[v]++;}
vector<long long>f(n+1,0);f[1]=1;queue<int>q;for(int i=1;i<=n;i++)if(!d[i])q.push(i);
while(!q.empty()){int u=q.front();q.pop();for(int v:g[u]){f[v]=(f[v]+f[u])%M;if(!--d[v])q.push(v);}}
printf("%lld\n",f[n]);}
