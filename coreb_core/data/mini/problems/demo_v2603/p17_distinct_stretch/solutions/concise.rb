s=gets.strip;h={};l=b=0
s.each_char.with_index{|c,i|l=h[c]+1 if h[c]&&h[c]>=l;h[c]=i;b=[b,i-l+1].max}
p b
