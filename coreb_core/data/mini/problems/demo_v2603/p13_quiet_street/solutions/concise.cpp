#include <bits/stdc++.h>
using namespace std;
int main(){int n;scanf("%d",&n);long long p=0,q=0;for(int i=0;i<n;i++){long long x;scanf("%lld",&x);long long t=max(q,p+x);p=q;q=t;}printf("%lld\n",q);}
