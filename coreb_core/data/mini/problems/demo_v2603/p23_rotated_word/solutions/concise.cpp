#include <bits/stdc++.h>
using namespace std;
int main(){string s,t;cin>>s>>t;int n=s.size();
if(n!=(int)t.size()){puts("NO");return 0;}
string w=t+"#"+s+s;vector<int>p(w.size(),0);
for(int i=1;i<(int)w.size();i++){int j=p[i-1];while(j&&w[i]!=w[j])j=p[j-1];if(w[i]==w[j])j++;p[i]=j;
if(j==n){printf("YES\n%d\n",i-2*n);return 0;}}
puts("NO");}
