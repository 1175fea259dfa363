s=gets.strip;m={')'=>'(',']'=>'[','}'=>'{'};t=[]
ok=s.each_char.all?{|c| m[c] ? t.pop==m[c] : (t<<c;true)}
puts ok&&t.empty? ? "YES" : "NO"
