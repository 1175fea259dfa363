n,*a=STDIN.read.split.map(&:to_i)
p=q=0
a[0,n].each{|x|p,q=q,[q,p+x].max}
puts q
