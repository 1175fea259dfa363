n,d=gets.split.map(&:to_i);w=gets.split.map(&:to_i)
ok=->c{k=1;s=0;w.each{|x|(k+=1;s=0)if s+x>c;s+=x};k<=d}
p (w.max..w.sum).bsearch{|c|ok[c]}
