# For every height, the first strictly greater height to its right (or -1).
def first_taller_to_the_right(heights)
  answer = Array.new(heights.size, -1)
  pending = [] # indices still waiting for a taller tower, heights non-increasing
  heights.each_with_index do |height, index|
    while !pending.empty? && heights[pending.last] < height
      answer[pending.pop] = height
    end
    pending.push(index)
  end
  answer
end

_count = $stdin.gets.to_i
heights = $stdin.gets.split.map(&:to_i)
puts first_taller_to_the_right(heights).join(' ')
