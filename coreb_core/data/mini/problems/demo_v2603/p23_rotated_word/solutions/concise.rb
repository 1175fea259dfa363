s,t=STDIN.read.split
k=s.size==t.size ? (s+s).index(t) : nil
puts k ? "YES\n#{k}" : "NO"
