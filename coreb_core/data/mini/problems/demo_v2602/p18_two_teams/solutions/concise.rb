n,m,*e=$stdin.read.split.map(&:to_i)
g=Array.new(n+1){[]}
m.times{|i|a,b=e[2*i],e[2*i+1];g[a]<<b;g[b]<<a}
c=[nil]*(n+1);ok=true
(1..n).each{|s|next if c[s];c[s]=0;q=[s]
q.each{|u|g[u].each{|v|if c[v].nil?;c[v]=1-c[u];q<<v;elsif c[v]==c[u];ok=false;end}}}
puts ok ? "YES" : "NO"
