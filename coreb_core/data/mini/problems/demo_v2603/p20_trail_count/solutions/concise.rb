n,m=gets.split.map(&:to_i);g=Array.new(n+1){[]};d=[0]*(n+1)
m.times{u,v=gets.split.map(&:to_i);g[u]<<v;d[v]+=1}
f=[0]*(n+1);f[1]=1;q=(1..n).select{|i|d[i]==0};i=0
while i<q.size;u=q[i];i+=1
g[u].each{|v|f[v]=(f[v]+f[u])%1_000_000_007;d[v]-=1;q<<v if d[v]==0};end
p f[n]
