t,p=STDIN.read.split;m=p.size;f=[0]*m;k=0
(1...m).each{|i|k=f[k-1] while k>0&&p[i]!=p[k];k+=1 if p[i]==p[k];f[i]=k}
c=k=0
t.each_char{|ch|k=f[k-1] while k>0&&ch!=p[k];k+=1 if ch==p[k];(c+=1;k=f[k-1]) if k==m}
p c
