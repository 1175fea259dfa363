d=STDIN.read.split.map(&:to_i)
n,m=d[0],d[1]
g=Array.new(n+1){[]}
m.times{|i|u,v,w=d[2+3*i,3];g[u]<<[v,w];g[v]<<[u,w]}
D=Array.new(n+1);D[1]=0;h=[[0,1]]
push=->(x){h<<x;i=h.size-1;while i>0&&h[(i-1)/2][0]>h[i][0];p=(i-1)/2;h[p],h[i]=h[i],h[p];i=p end}
pop=->(){t=h[0];l=h.pop;if h.size>0;h[0]=l;i=0
loop{c=2*i+1;break if c>=h.size;c+=1 if c+1<h.size&&h[c+1][0]<h[c][0];break if h[i][0]<=h[c][0];h[i],h[c]=h[c],h[i];i=c} end;t}
until h.empty?
  x,u=pop.()
  next if x>D[u]
  g[u].each{|v,w|if D[v].nil?||x+w<D[v];D[v]=x+w;push.([x+w,v]) end}
end
puts D[n]||-1
