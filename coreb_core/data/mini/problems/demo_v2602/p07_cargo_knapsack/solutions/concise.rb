d=STDIN.read.split.map(&:to_i)
n,w=d[0],d[1]
f=Array.new(w+1,0)
n.times{|i|
  a,v=d[2+2*i],d[3+2*i]
  w.downto(a){|c| t=f[c-a]+v; f[c]=t if t>f[c]}
}
puts f[w]
