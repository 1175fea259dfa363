d=STDIN.read.split.map(&:to_i);n=d[0]
e=(0...n).flat_map{|i|[[d[1+2*i],0],[d[2+2*i],1]]}.sort
c=b=0
e.each{|_,t| t==0 ? (c+=1;b=c if c>b) : c-=1}
puts b
