# Answers many "total between hour l and hour r" questions with cumulative sums.

class FlowLedger
  def initialize(readings)
    @cumulative = readings.each_with_object([0]) { |reading, sums| sums << sums.last + reading }
  end

  # Both hours are 1-based and inclusive.
  def total_between(first_hour, last_hour)
    @cumulative[last_hour] - @cumulative[first_hour - 1]
  end
end

_hour_count, question_count = $stdin.gets.split.map(&:to_i)
ledger = FlowLedger.new($stdin.gets.split.map(&:to_i))
answers = Array.new(question_count) do
  first_hour, last_hour = $stdin.gets.split.map(&:to_i)
  ledger.total_between(first_hour, last_hour)
end
puts answers
