#include <bits/stdc++.h>
using namespace std;
int p[100005];
int f(int x){return p[x]==x?x:p[x]=f(p[x]);}
int main(){int n,m;scanf("%d %d",&n,&m);iota(p,p+n+1,0);int g=n;string o;
while(m--){int a,b;scanf("%d %d",&a,&b);a=f(a);b=f(b);if(a!=b){p[a]=b;g--;}o+=to_string(g);o+='\n';}
fputs(o.c_str(),stdout);}
