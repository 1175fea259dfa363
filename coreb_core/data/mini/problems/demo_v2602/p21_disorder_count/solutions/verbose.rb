# Returns [sorted_values, inversion_count] for the given list.
def sort_and_count(values)
  return [values, 0] if values.size <= 1

  middle = values.size / 2
  left, left_count = sort_and_count(values[0...middle])
  right, right_count = sort_and_count(values[middle..])
  merged = []
  inversions = left_count + right_count
  i = 0
  j = 0
  while i < left.size && j < right.size
    if left[i] <= right[j]
      merged << left[i]
      i += 1
    else
      # everything still waiting in the left half is larger
      inversions += left.size - i
      merged << right[j]
      j += 1
    end
  end
  merged.concat(left[i..]).concat(right[j..])
  [merged, inversions]
end

count = $stdin.gets.to_i
years = $stdin.gets.split.map(&:to_i).first(count)
puts sort_and_count(years)[1]
