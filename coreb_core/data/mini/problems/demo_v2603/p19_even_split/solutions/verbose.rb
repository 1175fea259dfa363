# Decides whether a list of weights can be divided into two equal-total groups.

def read_weights
  tokens = $stdin.read.split.map(&:to_i)
  count = tokens.first
  tokens[1, count]
end

def can_split_evenly?(weights)
  total = weights.sum
  return false if total.odd?

  target = total / 2
  reachable = Array.new(target + 1, false)
  reachable[0] = true
  weights.each do |weight|
    # go from high sums to low ones so a weight is used only once
    target.downto(weight) do |sum|
      reachable[sum] = true if reachable[sum - weight]
    end
  end
  reachable[target]
end

weights = read_weights
puts(can_split_evenly?(weights) ? 'YES' : 'NO')
