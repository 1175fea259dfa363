# Reports the highest reading inside every run of `width` consecutive readings.

def read_input
  numbers = $stdin.read.split.map(&:to_i)
  count, width = numbers[0], numbers[1]
  [numbers[2, count], width]
end

def sliding_maxima(levels, width)
  # Indices with strictly decreasing readings; the first one is the current peak.
  candidates = []
  peaks = []
  levels.each_with_index do |level, index|
    candidates.pop while !candidates.empty? && levels[candidates.last] <= level
    candidates.push(index)
    window_start = index - width + 1
    candidates.shift if candidates.first < window_start
    peaks << levels[candidates.first] if window_start >= 0
  end
  peaks
end

levels, width = read_input
puts sliding_maxima(levels, width).join(' ')
