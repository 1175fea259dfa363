w=STDIN.read.split[1..]
c=w.map{|x|x.chars.sort.join}.tally
puts "#{c.size} #{c.values.max}"
