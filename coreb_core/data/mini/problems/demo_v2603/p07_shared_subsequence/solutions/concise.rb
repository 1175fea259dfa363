a,b=STDIN.read.split
m=b.size
dp=[0]*(m+1)
a.each_char{|c|d=0;(1..m).each{|j|t=dp[j];dp[j]=c==b[j-1] ? d+1 : (dp[j]>dp[j-1] ? dp[j] : dp[j-1]);d=t}}
puts dp[m]
