#include <bits/stdc++.h>
using namespace std;
int main(){ios::sync_with_stdio(0);cin.tie(0);int n;cin>>n;unordered_map<string,int>m;int b=0;
for(int i=0;i<n;i++){string s;cin>>s;sort(s.begin(),s.end()-1);b=max(b,++m[s]);}
cout<<m.size()<<" "<<b<<"\n";}
