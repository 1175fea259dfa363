n,q,*d=$stdin.read.split.map(&:to_i)
p_=[0];d[0,n].each{|x|p_<<p_[-1]+x}
puts d[n,2*q].each_slice(2).map{|l,r|p_[r]-p_[l-1]}
