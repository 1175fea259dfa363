# Longest block of neighbouring flowers in which no species repeats.
def longest_unique_run(row)
  counts = Hash.new(0)
  left = 0
  best = 0
  row.each_char.with_index do |flower, right|
    counts[flower] += 1
    while counts[flower] > 1
      counts[row[left]] -= 1
      left += 1
    end
    best = [best, right - left + 1].max
  end
  best
end

row = $stdin.gets.to_s.strip
puts longest_unique_run(row)
