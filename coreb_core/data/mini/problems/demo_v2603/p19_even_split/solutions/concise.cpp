#include <bits/stdc++.h>
using namespace std;
int main(){int n;cin>>n;vector<int>a(n);int t=0;for(auto&x:a)cin>>x,t+=x;
bitset<100001>b;b[0]=1;for(int x:a)b|=b<<x;
puts(t%2==0&&b[t/2]?"YES":"NO");}
