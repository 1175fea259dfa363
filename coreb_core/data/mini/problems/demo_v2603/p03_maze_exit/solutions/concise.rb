h,w=gets.split.map(&:to_i);g=Array.new(h){gets.strip}
s=e=nil;h.times{|i|w.times{|j|s=[i,j] if g[i][j]=='S';e=[i,j] if g[i][j]=='E'}}
d=Array.new(h){[-1]*w};d[s[0]][s[1]]=0;q=[s];k=0
while k<q.size
  x,y=q[k];k+=1
  [[x+1,y],[x-1,y],[x,y+1],[x,y-1]].each{|a,b|next if a<0||a>=h||b<0||b>=w||g[a][b]=='#'||d[a][b]>=0;d[a][b]=d[x][y]+1;q<<[a,b]}
end
p d[e[0]][e[1]]
