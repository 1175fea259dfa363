#include <bits/stdc++.h>
int main(){long long n,b,s=0;std::cin>>n>>b;for(;n;n/=b)s+=n%b;std::cout<<s<<"\n";}
