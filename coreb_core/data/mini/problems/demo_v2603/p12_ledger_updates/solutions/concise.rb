d=STDIN.read.split.map(&:to_i)
n,q=d[0],d[1]
a=[0]+d[2,n];t=[0]*(n+1)
up=->(i,v){while i<=n do t[i]+=v;i+=i&-i end}
s=->(i){r=0;while i>0 do r+=t[i];i-=i&-i end;r}
(1..n).each{|i|up[i,a[i]]}
o=[];p=2+n
q.times{c,x,y=d[p,3];p+=3;if c==1 then up[x,y-a[x]];a[x]=y else o<<s[y]-s[x-1] end}
puts o
