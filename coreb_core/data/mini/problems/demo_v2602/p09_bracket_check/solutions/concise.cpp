#include <bits/stdc++.h>
using namespace std;
int main(){string s;cin>>s;string t;
for(char c:s){if(c=='('||c=='['||c=='{')t+=c;
else{char o=c==')'?'(':c==']'?'[':'{';if(t.empty()||t.back()!=o){puts("NO");return 0;}t.pop_back();}}
puts(t.empty()?"YES":"NO");}
