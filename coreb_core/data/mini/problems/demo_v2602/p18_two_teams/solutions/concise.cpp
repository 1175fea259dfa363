#include <bits/stdc++.h>
using namespace std;
vector<int>p,r;
int f(int x){if(p[x]==x)return x;int q=p[x];p[x]=f(q);r[x]^=r[q];return p[x];}
int main(){int n,m;scanf("%d %d",&n,&m);p.resize(n+1);r.assign(n+1,0);iota(p.begin(),p.end(),0);bool ok=1;
for(int i=0;i<m;i++){int a,b;scanf("%d %d",&a,&b);int x=f(a),y=f(b);if(x==y){if(r[a]==r[b])ok=0;}else{p[x]=y;r[x]=r[a]^r[b]^1;}}
puts(ok?"YES":"NO");}
