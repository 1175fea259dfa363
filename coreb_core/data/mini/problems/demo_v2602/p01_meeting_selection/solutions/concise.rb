n,*a=STDIN.read.split.map(&:to_i)
c=t=0
a.each_slice(2).sort_by{|s,e|e}.each{|s,e|(c+=1;t=e) if s>=t}
p c
