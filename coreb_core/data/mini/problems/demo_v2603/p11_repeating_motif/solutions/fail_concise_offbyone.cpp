#include <bits/stdc++.h>
using namespace std;
int main(){string s;cin>>s;int n=s.size();vector<int>pi(n,0);
for(int i=1,k=0;i<n-1;i++){while(k&&s[i]!=s[k])k=pi[k-1];if(s[i]==s[k])k++;pi[i]=k;}
int p=n-pi[n-1];printf("%d\n",n%p?n:p);}
