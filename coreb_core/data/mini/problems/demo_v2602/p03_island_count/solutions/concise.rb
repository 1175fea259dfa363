r,c=gets.split.map(&:to_i);g=Array.new(r){gets.chomp.chars}
k=0
r.times{|i|c.times{|j|next if g[i][j]!='#'
k+=1;g[i][j]='.';s=[[i,j]]
until s.empty?
x,y=s.pop
[[x+1,y],[x-1,y],[x,y+1],[x,y-1]].each{|a,b|(g[a][b]='.';s<<[a,b]) if a>=0&&a<r&&b>=0&&b<c&&g[a][b]=='#'}
end}}
p k
