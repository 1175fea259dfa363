n=gets.to_i;a=gets.split.map(&:to_i)
r=e=m=0
ans=(0...n-1).each{|i|m=[m,i+a[i]].max;next unless i==e;break -1 if m<=i;r+=1;e=m}
p ans==-1 ? -1 : r
