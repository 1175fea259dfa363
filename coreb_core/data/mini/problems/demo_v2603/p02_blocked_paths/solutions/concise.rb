h,w=gets.split.map(&:to_i);M=10**9+7
f=[0]*w;f[0]=1
h.times{r=gets.strip;w.times{|j|r[j]=='#' ? f[j]=0 : (f[j]=(f[j]+f[j-1])%M if j>0)}}
puts f[w-1]
