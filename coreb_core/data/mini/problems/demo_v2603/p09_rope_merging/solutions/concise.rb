d=STDIN.read.split.map(&:to_i)
a=d[1,d[0]].sort
b=[];i=j=0;t=0
pk=->{if j>=b.size||(i<a.size&&a[i]<=b[j]) then i+=1;a[i-1] else j+=1;b[j-1] end}
while a.size-i+b.size-j>1
  s=pk[]+pk[];t+=s;b<<s
end
puts t
