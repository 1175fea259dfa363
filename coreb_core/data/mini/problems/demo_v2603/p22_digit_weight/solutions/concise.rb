n,b=gets.split.map(&:to_i);p n.digits(b).sum
