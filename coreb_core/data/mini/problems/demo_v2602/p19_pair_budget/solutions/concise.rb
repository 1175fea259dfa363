n,k,*a=$stdin.read.split.map(&:to_i)
c=Hash.new(0);r=0
a[0,n].each{|x|r+=c[k-x];c[x]+=1}
p r
