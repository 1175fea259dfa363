#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
int main(){int n,m;scanf("%d %d",&n,&m);vector<vector<pair<int,int>>>g(n+1);
for(int i=0;i<m;i++){int u,v,w;scanf("%d %d %d",&u,&v,&w);g[u].push_back({v,w});g[v].push_back({u,w});}
const ll INF=LLONG_MAX;vector<ll>d(n+1,INF);d[1]=0;
priority_queue<pair<ll,int>,vector<pair<ll,int>>,greater<pair<ll,int>>>q;q.push({0,1});
while(!q.empty()){auto [x,u]=q.top();q.pop();if(x>d[u])continue;
for(auto [v,w]:g[u])if(x+w<d[v]){d[v]=x+w;q.push({d[v],v});}}
printf("%lld\n",d[n]==INF?-1LL:d[n]);}
