MODULUS = 1_000_000_007

# Returns the number of right/down routes through free cells, modulo MODULUS.
def count_routes(grid)
  height = grid.size
  width = grid.first.size
  ways = Array.new(height) { Array.new(width, 0) }
  grid.each_with_index do |line, row|
    line.each_char.with_index do |cell, col|
      next if cell == '#'

      if row.zero? && col.zero?
        ways[row][col] = 1
        next
      end
      from_above = row.positive? ? ways[row - 1][col] : 0
      from_left = col.positive? ? ways[row][col - 1] : 0
      ways[row][col] = (from_above + from_left) % MODULUS
    end
  end
  ways[height - 1][width - 1]
end

height, _width = $stdin.gets.split.map(&:to_i)
grid = Array.new(height) { $stdin.gets.strip }
puts count_routes(grid)
