#include <bits/stdc++.h>
using namespace std;
int main(){int n;scanf("%d",&n);priority_queue<long long,vector<long long>,greater<long long>>q;
for(int i=0;i<n;i++){long long x;scanf("%lld",&x);q.push(x);}
long long t=0;while(q.size()>1){long long a=q.top();q.pop();a+=q.top();q.pop();t+=a;q.push(a);}
printf("%lld\n",t);}
