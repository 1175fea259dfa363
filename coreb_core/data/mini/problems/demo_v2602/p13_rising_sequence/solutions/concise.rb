n=gets.to_i
a=(STDIN.read||"").split.map(&:to_i)[0,n]
t=[]
a.each{|x|i=t.bsearch_index{|v|v>=x}||t.size;t[i]=x}
p t.size
