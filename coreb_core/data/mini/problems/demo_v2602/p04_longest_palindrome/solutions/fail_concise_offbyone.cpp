#include <bits/stdc++.h>
using namespace std;
int main(){string s;cin>>s;int n=s.size(),b=1;
for(int i=0;i<n;i++)for(int k=0;k<2;k++){int l=i,r=i+k;while(l>0&&r<n&&s[l]==s[r])l--,r++;b=max(b,r-l-1);}
cout<<b<<endl;}
