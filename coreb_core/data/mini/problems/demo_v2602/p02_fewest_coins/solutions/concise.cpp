#include <bits/stdc++.h>
using namespace std;
int main(){int n,s;cin>>n>>s;vector<int>c(n),d(s+1,INT_MAX);for(int&x:c)cin>>x;d[0]=0;
for(int a=1;a<=s;a++)for(int x:c)if(x<=a&&d[a-x]!=INT_MAX)d[a]=min(d[a],d[a-x]+1);
cout<<(d[s]==INT_MAX?-1:d[s])<<endl;}
