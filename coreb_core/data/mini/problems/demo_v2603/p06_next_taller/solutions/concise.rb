n=gets.to_i;a=gets.split.map(&:to_i);r=[-1]*n;s=[]
a.each_with_index{|x,i|r[s.pop]=x while !s.empty?&&a[s[-1]]<x;s<<i}
puts r.join(' ')
