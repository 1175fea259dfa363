# Fewest tokens that add up exactly to the requested amount.

def read_input
  numbers = $stdin.read.split.map(&:to_i)
  count, target = numbers[0], numbers[1]
  [target, numbers[2, count].uniq]
end

def fewest_tokens(target, values)
  infinity = Float::INFINITY
  best = Array.new(target + 1, infinity)
  best[0] = 0
  # Process one value at a time; each value may be reused, so amounts go upward.
  values.each do |value|
    (value..target).each do |amount|
      option = best[amount - value] + 1
      best[amount] = option if option < best[amount]
    end
  end
  best[target] == infinity ? -1 : best[target]
end

target, values = read_input
puts fewest_tokens(target, values)
