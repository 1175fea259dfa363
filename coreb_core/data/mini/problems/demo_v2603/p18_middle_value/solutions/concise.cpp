#include <bits/stdc++.h>
using namespace std;
int main(){int n;scanf("%d",&n);priority_queue<long long>a;priority_queue<long long,vector<long long>,greater<long long>>b;string o;
for(int i=0;i<n;i++){long long x;scanf("%lld",&x);a.push(x);b.push(a.top());a.pop();if(b.size()>a.size()){a.push(b.top());b.pop();}o+=to_string(a.top());o+='\n';}fputs(o.c_str(),stdout);}
