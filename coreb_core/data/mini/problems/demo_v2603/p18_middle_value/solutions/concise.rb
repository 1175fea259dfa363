n,*a=STDIN.read.split.map(&:to_i)
s=[];o=[]
a[0,n].each{|x|s.insert(s.bsearch_index{|y|y>=x}||s.size,x);o<<s[(s.size-1)/2]}
puts o
