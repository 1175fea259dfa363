#include <bits/stdc++.h>
using namespace std;
int main(){int h,w;cin>>h>>w;vector<string>g(h);for(auto&s:g)cin>>s;int s=0,e=0;
for(int i=0;i<h;i++)for(int j=0;j<w;j++){if(g[i][j]=='S')s=i*w+j;if(g[i][j]=='E')e=i*w+j;}
vector<int>d(h*w,-1);d[s]=0;queue<int>q;q.push(s);int dx[]={1,-1,0,0},dy[]={0,0,1,-1};
while(!q.empty()){int v=q.front();q.pop();int x=v/w,y=v%w;for(int k=0;k<4;k++){int a=x+dx[k],b=y+dy[k];
if(a<0||a>=h||b<0||b>=w||g[a][b]=='#'||d[a*w+b]>=0)continue;d[a*w+b]=d[v]+1;q.push(a*w+b);}}
printf("%d\n",d[e]);}
