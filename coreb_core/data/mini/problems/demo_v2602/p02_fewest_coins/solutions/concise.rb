n,s,*c=$stdin.read.split.map(&:to_i)
d=[0]+[nil]*s
(1..s).each{|a|c.each{|x|x<=a&&d[a-x]&&(d[a].nil?||d[a-x]+1<d[a])&&d[a]=d[a-x]+1}}
p d[s]||-1
