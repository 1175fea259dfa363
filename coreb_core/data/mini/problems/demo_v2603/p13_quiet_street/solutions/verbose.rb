# Best total of pledges when no two neighbouring houses can both be visited.
def best_collection(pledges)
  memo = Array.new(pledges.size + 1, 0)
  pledges.each_with_index do |amount, index|
    previous_best = memo[index]
    two_back_best = index >= 1 ? memo[index - 1] : 0
    memo[index + 1] = [previous_best, two_back_best + amount].max
  end
  memo[pledges.size]
end

tokens = $stdin.read.split.map(&:to_i)
house_count = tokens.first
pledges = tokens[1, house_count]
puts best_collection(pledges)
