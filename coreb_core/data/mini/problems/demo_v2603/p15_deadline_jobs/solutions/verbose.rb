Order = Struct.new(:duration, :promised_time)

# Reads the orders: a count, then one "duration promised_time" pair per order.
def read_orders
  numbers = $stdin.read.split.map(&:to_i)
  count = numbers.shift
  Array.new(count) { Order.new(*numbers.shift(2)) }
end

# Earliest promised time first; returns the largest delay in that schedule.
def minimal_worst_delay(orders)
  clock = 0
  worst = nil
  orders.sort_by(&:promised_time).each do |order|
    clock += order.duration
    delay = clock - order.promised_time
    worst = delay if worst.nil? || delay > worst
  end
  worst
end

puts minimal_worst_delay(read_orders)
