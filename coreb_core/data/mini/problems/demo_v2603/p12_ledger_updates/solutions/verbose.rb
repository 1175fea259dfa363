# Binary indexed tree supporting point additions and prefix sums (1-based).
class FenwickTree
  def initialize(size)
    @size = size
    @tree = Array.new(size + 1, 0)
  end

  def add(position, delta)
    while position <= @size
      @tree[position] += delta
      position += position & -position
    end
  end

  def prefix_sum(position)
    total = 0
    while position.positive?
      total += @tree[position]
      position -= position & -position
    end
    total
  end

  def range_sum(left, right)
    prefix_sum(right) - prefix_sum(left - 1)
  end
end

numbers = $stdin.read.split.map(&:to_i)
account_count, operation_count = numbers[0], numbers[1]
balances = [0] + numbers[2, account_count]
ledger = FenwickTree.new(account_count)
(1..account_count).each { |account| ledger.add(account, balances[account]) }

cursor = 2 + account_count
answers = []
operation_count.times do
  kind, first, second = numbers[cursor, 3]
  cursor += 3
  if kind == 1
    # Replace the balance by adding only the difference.
    ledger.add(first, second - balances[first])
    balances[first] = second
  else
    answers << ledger.range_sum(first, second)
  end
end
puts answers
