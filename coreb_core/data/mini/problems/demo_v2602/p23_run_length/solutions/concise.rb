puts gets.strip.chars.chunk_while{|a,b|a==b}.map{|g|"#{g[0]}#{g.size}"}.join
