require 'set'

STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1]].freeze

def find_symbol(rows, symbol)
  rows.each_with_index do |line, row|
    col = line.index(symbol)
    return [row, col] if col
  end
  nil
end

def inside?(row, col, height, width)
  row.between?(0, height - 1) && col.between?(0, width - 1)
end

# Breadth-first search, layer by layer; returns the layer number where the exit appears.
def shortest_walk(rows, height, width)
  start = find_symbol(rows, 'S')
  goal = find_symbol(rows, 'E')
  seen = Set[start]
  layer = [start]
  distance = 0
  until layer.empty?
    return distance if layer.include?(goal)

    next_layer = []
    layer.each do |row, col|
      STEPS.each do |d_row, d_col|
        next_row = row + d_row
        next_col = col + d_col
        next unless inside?(next_row, next_col, height, width)
        next if rows[next_row][next_col] == '#'
        next unless seen.add?([next_row, next_col])

        next_layer << [next_row, next_col]
      end
    end
    layer = next_layer
    distance += 1
  end
  -1
end

height, width = $stdin.gets.split.map(&:to_i)
rows = Array.new(height) { $stdin.gets.chomp }
puts shortest_walk(rows, height, width)
