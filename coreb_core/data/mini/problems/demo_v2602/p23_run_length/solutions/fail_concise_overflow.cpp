#include <bits/stdc++.h>
using namespace std;
int main(){string s,o;cin>>s;int n=s.size();char c=1;
for(int i=1;i<=n;i++){if(i<n&&s[i]==s[i-1])c++;else{o+=s[i-1];o+=to_string(c);c=1;}}
cout<<o<<"\n";}
