# Counts unordered position pairs whose prices add up to the target sum.
def count_pairs_with_sum(prices, target_sum)
  frequency = prices.tally
  frequency.sum do |value, occurrences|
    complement = target_sum - value
    if value < complement
      occurrences * frequency.fetch(complement, 0)
    elsif value == complement
      # pairs chosen among equal prices
      occurrences * (occurrences - 1) / 2
    else
      0
    end
  end
end

tokens = $stdin.read.split.map(&:to_i)
item_count = tokens[0]
target_sum = tokens[1]
prices = tokens[2, item_count]
puts count_pairs_with_sum(prices, target_sum)
