#include <bits/stdc++.h>
using namespace std;
int main(){ios::sync_with_stdio(0);string t,p;cin>>t>>p;int m=p.size();string s=p+'#'+t;int n=s.size();vector<int>z(n,0);
for(int i=1,l=0,r=0;i<n;i++){if(i<r)z[i]=min(r-i,z[i-l]);while(i+z[i]<n&&s[z[i]]==s[i+z[i]])z[i]++;if(i+z[i]>r)l=i,r=i+z[i];}
long long c=0;for(int i=m+1;i<n;i++)if(z[i]==m)c++;cout<<c<<"\n";}
