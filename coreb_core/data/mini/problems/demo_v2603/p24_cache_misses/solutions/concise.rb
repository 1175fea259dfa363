c,n,*a=STDIN.read.split.map(&:to_i);h={};r=0
a[0,n].each{|x|if h.key?(x);h.delete(x);h[x]=1;else r+=1;h[x]=1;h.shift if h.size>c;end}
p r
