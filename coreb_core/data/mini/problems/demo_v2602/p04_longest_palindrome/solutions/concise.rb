s=gets.strip;n=s.size;b=1
(0...2*n-1).each{|c|l=c/2;r=l+c%2
(l-=1;r+=1) while l>=0&&r<n&&s[l]==s[r]
b=r-l-1 if r-l-1>b}
p b
