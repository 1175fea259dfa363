#include <bits/stdc++.h>
using namespace std;
int main(){int L,R;scanf("%d %d",&L,&R);vector<char>c(R+1,0);c[0]=1;if(R>=1)c[1]=1;
for(long long i=2;i*i<=R;i++)if(!c[i])for(long long j=i*i;j<=R;j+=i)c[j]=1;
int r=0;for(int i=L;i<=R;i++)r+=!c[i];printf("%d\n",r);}
