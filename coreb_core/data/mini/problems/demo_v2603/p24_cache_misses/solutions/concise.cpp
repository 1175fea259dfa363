#include <bits/stdc++.h>
using namespace std;
int main(){int c,n;scanf("%d %d",&c,&n);list<int>l;unordered_map<int,list<int>::iterator>m;long long r=0;
while(n--){int x;scanf("%d",&x);auto it=m.find(x);
if(it!=m.end()){l.splice(l.end(),l,it->second);continue;}
r++;l.push_back(x);m[x]=prev(l.end());if((int)l.size()>c){m.erase(l.front());l.pop_front();}}
printf("%lld\n",r);}
