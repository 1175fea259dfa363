n,*a=$stdin.read.split.map(&:to_i)
g=a.reduce(0){|x,y|x.gcd(y)}
puts "#{g} #{a.count(g)}"
