# Counts groups of side-connected land squares on a chart.
require 'set'

class IslandCounter
  NEIGHBOUR_OFFSETS = [[1, 0], [-1, 0], [0, 1], [0, -1]].freeze

  def initialize(chart)
    @chart = chart
    @rows = chart.length
    @cols = chart.first.length
    @visited = Set.new
  end

  def count
    islands = 0
    each_cell do |row, col|
      next unless land?(row, col) && !@visited.include?([row, col])

      islands += 1
      flood(row, col)
    end
    islands
  end

  private

  def each_cell
    @rows.times { |row| @cols.times { |col| yield row, col } }
  end

  def land?(row, col)
    row.between?(0, @rows - 1) && col.between?(0, @cols - 1) && @chart[row][col] == '#'
  end

  # Breadth-first flood over one island.
  def flood(start_row, start_col)
    queue = [[start_row, start_col]]
    @visited.add([start_row, start_col])
    until queue.empty?
      row, col = queue.shift
      NEIGHBOUR_OFFSETS.each do |d_row, d_col|
        neighbour = [row + d_row, col + d_col]
        next unless land?(*neighbour) && !@visited.include?(neighbour)

        @visited.add(neighbour)
        queue.push(neighbour)
      end
    end
  end
end

rows, _cols = $stdin.gets.split.map(&:to_i)
chart = Array.new(rows) { $stdin.gets.strip }
puts IslandCounter.new(chart).count
