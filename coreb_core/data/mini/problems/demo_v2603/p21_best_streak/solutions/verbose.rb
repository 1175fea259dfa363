# Finds the largest total over all runs of consecutive values (non-empty).

def read_profits
  day_count = $stdin.gets.to_i
  $stdin.read.split.map(&:to_i).first(day_count)
end

def largest_run_total(profits)
  best_ending_here = profits.first
  best_overall = profits.first
  profits.drop(1).each do |profit|
    # either continue the current run or start a new one today
    best_ending_here = [profit, best_ending_here + profit].max
    best_overall = [best_overall, best_ending_here].max
  end
  best_overall
end

puts largest_run_total(read_profits)
