# Counts the fewest single-letter keystrokes (insert, delete, overwrite)
# that turn the received word into the intended one.

def edit_distance(received, intended)
  previous_row = (0..intended.length).to_a
  received.each_char.with_index(1) do |received_letter, i|
    current_row = [i]
    intended.each_char.with_index(1) do |intended_letter, j|
      overwrite = previous_row[j - 1] + (received_letter == intended_letter ? 0 : 1)
      delete = previous_row[j] + 1
      insert = current_row[j - 1] + 1
      current_row << [overwrite, delete, insert].min
    end
    previous_row = current_row
  end
  previous_row.last
end

received, intended = $stdin.read.split
puts edit_distance(received, intended)
