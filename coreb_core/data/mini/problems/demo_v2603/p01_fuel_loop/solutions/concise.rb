d=STDIN.read.split.map(&:to_i);n=d[0];g=d[1,n];c=d[1+n,n]
t=s=st=0
n.times{|i|x=g[i]-c[i];t+=x;s+=x;(s=0;st=i+1) if s<0}
puts t>=0 ? st+1 : -1
