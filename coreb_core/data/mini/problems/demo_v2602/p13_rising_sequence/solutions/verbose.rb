# Reads the seedling heights and reports the longest strictly rising selection.

def read_heights
  tokens = $stdin.read.split
  count = tokens.first.to_i
  tokens[1, count].map(&:to_i)
end

# smallest_tails[k] is the lowest final height of any rising chain of length k + 1.
def longest_rising_length(heights)
  smallest_tails = []
  heights.each do |height|
    position = smallest_tails.bsearch_index { |tail| tail >= height }
    if position.nil?
      smallest_tails << height
    else
      smallest_tails[position] = height
    end
  end
  smallest_tails.length
end

heights = read_heights
puts longest_rising_length(heights)
