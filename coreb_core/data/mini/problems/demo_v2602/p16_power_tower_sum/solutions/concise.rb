M=10**9+7
t,*d=$stdin.read.split.map(&:to_i)
t.times{|i|a=d[2*i]%M;n=d[2*i+1]
puts a==1 ? (n+1)%M : (a.pow(n+1,M)-1)*(a-1).pow(M-2,M)%M}
