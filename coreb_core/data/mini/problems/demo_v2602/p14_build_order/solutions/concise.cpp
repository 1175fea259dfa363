#include <bits/stdc++.h>
using namespace std;
int main(){int n,m;scanf("%d %d",&n,&m);vector<vector<int>>g(n+1);vector<int>in(n+1,0),r;
for(int i=0;i<m;i++){int u,v;scanf("%d %d",&u,&v);g[u].push_back(v);in[v]++;}
priority_queue<int,vector<int>,greater<int>>q;for(int i=1;i<=n;i++)if(!in[i])q.push(i);
while(!q.empty()){int u=q.top();q.pop();r.push_back(u);for(int v:g[u])if(!--in[v])q.push(v);}
if((int)r.size()<n){puts("IMPOSSIBLE");return 0;}
for(int i=0;i<n;i++)printf("%d%c",r[i],i+1<n?' ':'\n');}
