n=gets.to_i;a=gets.split.map(&:to_i)
s=a.uniq.sort;rk={};s.each_with_index{|v,i|rk[v]=i+1};m=s.size;t=[0]*(m+1);r=0
a.each_with_index{|x,i|k=j=rk[x];q=0
while j>0;q+=t[j];j-=j&-j;end
r+=i-q
while k<=m;t[k]+=1;k+=k&-k;end}
p r
