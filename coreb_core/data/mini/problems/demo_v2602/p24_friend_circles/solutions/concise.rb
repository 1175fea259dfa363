n,m=gets.split.map(&:to_i);p_=(0..n).to_a;g=n
f=->x{x=p_[x]=p_[p_[x]] while p_[x]!=x;x}
puts (1..m).map{a,b=gets.split.map{|t|f[t.to_i]};(p_[a]=b;g-=1)if a!=b;g}
