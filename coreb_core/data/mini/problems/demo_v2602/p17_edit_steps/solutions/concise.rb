s,t=$stdin.read.split
m=t.size;p=(0..m).to_a
s.each_char.with_index(1){|a,i|c=[i];t.each_char.with_index(1){|b,j|c<<[p[j]+1,c[j-1]+1,p[j-1]+(a==b ? 0:1)].min};p=c}
puts p[m]
