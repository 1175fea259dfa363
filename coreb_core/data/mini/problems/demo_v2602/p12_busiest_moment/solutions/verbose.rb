# Finds the largest number of closed intervals that share a common moment.

def read_intervals
  numbers = $stdin.read.split.map(&:to_i)
  interval_count = numbers.first
  (0...interval_count).map { |i| [numbers[1 + 2 * i], numbers[2 + 2 * i]] }
end

# The peak overlap can always be taken at some interval's start, so for each
# start count the intervals already open there: started at or before it and not
# yet ended before it. Both lists are sorted and walked with two indices.
def peak_overlap(intervals)
  starts = intervals.map(&:first).sort
  ends = intervals.map(&:last).sort
  ended_before = 0
  most_active = 0
  starts.each_with_index do |start, index|
    ended_before += 1 while ends[ended_before] < start
    most_active = [most_active, index + 1 - ended_before].max
  end
  most_active
end

puts peak_overlap(read_intervals)
