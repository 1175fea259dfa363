#include <bits/stdc++.h>
using namespace std;
int r,c;vector<string>g;
int main(){cin>>r>>c;g.resize(r);for(auto&s:g)cin>>s;int k=0,dx[]={1,-1,0,0},dy[]={0,0,1,-1};
for(int i=0;i<r;i++)for(int j=0;j<c;j++)if(g[i][j]=='#'){k++;g[i][j]='.';vector<pair<int,int>>st{{i,j}};
while(!st.empty()){auto[x,y]=st.back();st.pop_back();for(int d=0;d<4;d++){int a=x+dx[d],b=y+dy[d];
if(a>=0&&a<r&&b>=0&&b<c&&g[a][b]=='#')g[a][b]='.',st.push_back({a,b});}}}
cout<<k<<"\n";}
