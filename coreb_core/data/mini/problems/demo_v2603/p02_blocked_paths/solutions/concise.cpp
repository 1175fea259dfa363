#include <bits/stdc++.h>
using namespace std;
const int M=1e9+7;
int main(){int h,w;cin>>h>>w;vector<string>g(h);for(auto&s:g)cin>>s;vector<int>f(w,0);f[0]=1;
for(int i=0;i<h;i++)for(int j=0;j<w;j++){if(g[i][j]=='#')f[j]=0;else if(j)f[j]=(f[j]+f[j-1])%M;}
cout<<f[w-1]<<"\n";}
