n,k,*a=$stdin.read.split.map(&:to_i)
a=a[0,n];q=[];h=0;r=[]
a.each_with_index{|x,i|q.pop while q.size>h&&a[q[-1]]<=x;q<<i;h+=1 if q[h]<=i-k;r<<a[q[h]] if i>=k-1}
puts r.join(" ")
