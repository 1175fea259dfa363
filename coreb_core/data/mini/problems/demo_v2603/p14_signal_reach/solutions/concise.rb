n,m,s,k,*e=STDIN.read.split.map(&:to_i)
g=Array.new(n+1){[]}
m.times{|i|u,v=e[2*i],e[2*i+1];g[u]<<v;g[v]<<u}
d=Array.new(n+1,-1);d[s]=0;q=[s];h=0
while h<q.size
  u=q[h];h+=1
  next if d[u]==k
  g[u].each{|v|if d[v]<0 then d[v]=d[u]+1;q<<v end}
end
puts q.size
