#include <bits/stdc++.h>
using namespace std;
int main(){int n;scanf("%d",&n);vector<pair<int,int>>v(n);for(auto&p:v)scanf("%d %d",&p.second,&p.first);
sort(v.begin(),v.end());int c=0,t=0;for(auto&p:v)if(p.second>=t)c++,t=p.first;printf("%d\n",c);}
