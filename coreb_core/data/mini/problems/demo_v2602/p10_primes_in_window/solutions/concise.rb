l,r=gets.split.map(&:to_i)
c=Array.new(r+1,true);c[0]=false;c[1]=false
i=2
while i*i<=r
  (i*i).step(r,i){|j|c[j]=false} if c[i]
  i+=1
end
puts c[l..r].count(true)
