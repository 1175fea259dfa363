n,*a=STDIN.read.split.map(&:to_i);a=a[0,n];t=a.sum
b=1;a.each{|x|b|=b<<x}
puts t.even?&&b[t/2]==1 ? "YES" : "NO"
