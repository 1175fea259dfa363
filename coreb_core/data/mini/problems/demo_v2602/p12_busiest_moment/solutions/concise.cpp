#include <bits/stdc++.h>
using namespace std;
int main(){int n;scanf("%d",&n);vector<long long>s(n),e(n);for(int i=0;i<n;i++)scanf("%lld %lld",&s[i],&e[i]);
sort(s.begin(),s.end());sort(e.begin(),e.end());int b=0;
for(int i=0,j=0;i<n;i++){while(e[j]<s[i])j++;b=max(b,i-j+1);}
printf("%d\n",b);}
