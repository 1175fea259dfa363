#include <bits/stdc++.h>
using namespace std;
int main(){string a,b;cin>>a>>b;int m=b.size();vector<int>dp(m+1,0);int d=0;
for(char c:a){for(int j=1;j<=m;j++){int t=dp[j];dp[j]=c==b[j-1]?d+1:max(dp[j],dp[j-1]);d=t;}}
printf("%d\n",dp[m]);}
