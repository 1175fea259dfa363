#include <bits/stdc++.h>
using namespace std;
typedef int T;const T M=1000000007;
typedef array<array<T,2>,2> Q;
Q mul(const Q&a,const Q&b){Q c{};for(int i=0;i<2;i++)for(int j=0;j<2;j++)for(int k=0;k<2;k++)c[i][j]=(c[i][j]+a[i][k]*b[k][j])%M;return c;}
int main(){unsigned long long n;cin>>n;Q r{},b{};r[0][0]=r[1][1]=1;b[0][0]=b[0][1]=b[1][0]=1;while(n){if(n&1)r=mul(r,b);b=mul(b,b);n>>=1;}cout<<r[0][1]<<"\n";}
