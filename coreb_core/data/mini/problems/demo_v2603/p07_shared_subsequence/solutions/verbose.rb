# Computes the longest common subsequence length with two rolling rows.
def longest_common_subsequence(first, second)
  columns = second.length
  previous_row = Array.new(columns + 1, 0)
  first.each_char do |letter|
    current_row = Array.new(columns + 1, 0)
    (1..columns).each do |j|
      current_row[j] =
        if letter == second[j - 1]
          previous_row[j - 1] + 1
        else
          [previous_row[j], current_row[j - 1]].max
        end
    end
    previous_row = current_row
  end
  previous_row[columns]
end

first_copy, second_copy = $stdin.read.split
puts longest_common_subsequence(first_copy, second_copy)
