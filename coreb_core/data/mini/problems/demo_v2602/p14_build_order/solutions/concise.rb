n,m,*e=$stdin.read.split.map(&:to_i)
g=Array.new(n+1){[]};d=[0]*(n+1)
m.times{|i|u,v=e[2*i],e[2*i+1];g[u]<<v;d[v]+=1}
h=[]
push=->x{h<<x;i=h.size-1;while i>0&&h[(i-1)/2]>h[i];j=(i-1)/2;h[i],h[j]=h[j],h[i];i=j;end}
pop=->{t=h[0];l=h.pop;if h.size>0;h[0]=l;i=0;loop{a=2*i+1;b=a+1;s=i;s=a if a<h.size&&h[a]<h[s];s=b if b<h.size&&h[b]<h[s];break if s==i;h[i],h[s]=h[s],h[i];i=s};end;t}
(1..n).each{|i|push[i] if d[i]==0}
r=[]
while h.size>0;u=pop[];r<<u;g[u].each{|v|d[v]-=1;push[v] if d[v]==0};end
puts r.size<n ? "IMPOSSIBLE" : r.join(" ")
