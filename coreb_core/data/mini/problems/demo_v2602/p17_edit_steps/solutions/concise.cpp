#include <bits/stdc++.h>
using namespace std;
int main(){string s,t;cin>>s>>t;int n=s.size(),m=t.size();vector<int>p(m+1),c(m+1);iota(p.begin(),p.end(),0);
for(int i=1;i<=n;i++){c[0]=i;for(int j=1;j<=m;j++)c[j]=min({p[j]+1,c[j-1]+1,p[j-1]+(s[i-1]!=t[j-1])});swap(p,c);}
printf("%d\n",p[m]);}
