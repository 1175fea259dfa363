n,*a=STDIN.read.split.map(&:to_i)
c=0
puts a.each_slice(2).first(n).sort_by{|t,d|d}.map{|t,d|(c+=t)-d}.max
