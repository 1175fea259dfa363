d=STDIN.read.split.map(&:to_i)
n,m=d[0],d[1]
e=(0...m).map{|i|d[2+3*i,3]}.sort_by{|x|x[2]}
p=(0..n).to_a
f=->(x){x=p[x]=p[p[x]] while p[x]!=x;x}
s=c=0
e.each{|u,v,w|a,b=f[u],f[v];if a!=b then p[a]=b;s+=w;c+=1 end}
puts c==n-1 ? s : -1
