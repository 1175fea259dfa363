n=gets.to_i;a=gets.split.map(&:to_i)
b=c=a[0]
(1...n-1).each{|i|c=[a[i],c+a[i]].max;b=c if c>b}
p b
