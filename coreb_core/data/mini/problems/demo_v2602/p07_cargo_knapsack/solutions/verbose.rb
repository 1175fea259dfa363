# Reads crates and prints the best value that fits within the capacity.

def read_crates
  numbers = $stdin.read.split.map(&:to_i)
  crate_count, capacity = numbers[0], numbers[1]
  crates = (0...crate_count).map do |index|
    { weight: numbers[2 + 2 * index], value: numbers[3 + 2 * index] }
  end
  [capacity, crates]
end

# Sparse variant: keep a map from total weight to best value, pruning
# states that exceed the capacity.
def best_load_value(capacity, crates)
  best_by_weight = { 0 => 0 }
  crates.each do |crate|
    extended = best_by_weight.dup
    best_by_weight.each do |used_weight, value|
      new_weight = used_weight + crate[:weight]
      next if new_weight > capacity

      new_value = value + crate[:value]
      extended[new_weight] = new_value if new_value > extended.fetch(new_weight, -1)
    end
    best_by_weight = extended
  end
  best_by_weight.values.max
end

capacity, crates = read_crates
puts best_load_value(capacity, crates)
