s=gets.strip;n=s.size;f=[0]*n;k=0
(1...n).each{|i|k=f[k-1] while k>0&&s[i]!=s[k];k+=1 if s[i]==s[k];f[i]=k}
p=n-f[-1]
puts n%p==0 ? p : n
