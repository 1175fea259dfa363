P=1_000_000_007
d=STDIN.read.split.map(&:to_i)
q=d[0];qs=(0...q).map{|i|[d[1+2*i],d[2+2*i]]}
m=qs.map(&:first).max+1
f=Array.new(m+1,1);(1..m).each{|i|f[i]=f[i-1]*i%P}
g=Array.new(m+1,1);g[m]=f[m].pow(P-2,P);m.downto(1){|i|g[i-1]=g[i]*i%P}
puts qs.map{|n,k|k>n ? 0 : f[n]*g[k]%P*g[n-k]%P}
