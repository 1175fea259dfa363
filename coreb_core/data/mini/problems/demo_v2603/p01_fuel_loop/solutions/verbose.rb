# Reads the route and prints the smallest valid starting station (1-based) or -1.
def read_route
  numbers = $stdin.read.split.map(&:to_i)
  count = numbers[0]
  fuel = numbers[1, count]
  cost = numbers[1 + count, count]
  [fuel, cost]
end

def smallest_start(fuel, cost)
  total = 0
  tank = 0
  start = 0
  fuel.each_index do |station|
    gain = fuel[station] - cost[station]
    total += gain
    tank += gain
    next unless tank.negative?

    # Nothing from start..station can work; try the next station.
    tank = 0
    start = station + 1
  end
  total.negative? ? -1 : start + 1
end

fuel, cost = read_route
puts smallest_start(fuel, cost)
