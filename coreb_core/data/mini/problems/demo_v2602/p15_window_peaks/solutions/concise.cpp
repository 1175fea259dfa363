#include <bits/stdc++.h>
using namespace std;
int main(){int n,k;scanf("%d %d",&n,&k);vector<long long>a(n);for(auto&x:a)scanf("%lld",&x);
deque<int>q;string o;
for(int i=0;i<n;i++){while(!q.empty()&&a[q.back()]<=a[i])q.pop_back();q.push_back(i);
if(q.front()<=i-k)q.pop_front();if(i>=k-1){if(!o.empty())o+=' ';o+=to_string(a[q.front()]);}}
puts(o.c_str());}
