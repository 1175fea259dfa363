#include <bits/stdc++.h>
using namespace std;
int main(){int n,m,s,k;scanf("%d %d %d %d",&n,&m,&s,&k);vector<vector<int>>g(n+1);for(int i=0;i<m;i++){int u,v;scanf("%d %d",&u,&v);g[u].push_back(v);g[v].push_back(u);}
vector<int>D(n+1,-1);D[s]=0;queue<int>q;q.push(s);int c=0;while(!q.empty()){int u=q.front();q.pop();if(D[u]>k)continue;c++;for(int v:g[u])if(D[v]<0){D[v]=D[u]+1;q.push(v);}}printf("%d\n",c);}
