#include <bits/stdc++.h>
using namespace std;
int main(){string s;cin>>s;int L[256];fill(L,L+256,0);int l=0,b=0;for(int i=0;i<(int)s.size();i++){unsigned char c=s[i];l=max(l,L[c]+1);L[c]=i;b=max(b,i-l+1);}printf("%d\n",b);}
