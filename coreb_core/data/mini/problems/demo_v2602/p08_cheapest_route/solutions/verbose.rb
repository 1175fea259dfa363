# Cheapest cost from junction 1 to junction n over undirected toll roads.

# A small binary min-heap keyed on the first element of each entry.
class MinHeap
  def initialize
    @items = []
  end

  def empty?
    @items.empty?
  end

  def push(entry)
    @items << entry
    sift_up(@items.size - 1)
  end

  def pop
    top = @items.first
    last = @items.pop
    unless @items.empty?
      @items[0] = last
      sift_down(0)
    end
    top
  end

  private

  def sift_up(index)
    while index.positive?
      parent = (index - 1) / 2
      break if @items[parent][0] <= @items[index][0]

      @items[parent], @items[index] = @items[index], @items[parent]
      index = parent
    end
  end

  def sift_down(index)
    loop do
      smallest = index
      [2 * index + 1, 2 * index + 2].each do |child|
        smallest = child if child < @items.size && @items[child][0] < @items[smallest][0]
      end
      break if smallest == index

      @items[smallest], @items[index] = @items[index], @items[smallest]
      index = smallest
    end
  end
end

def read_network
  numbers = $stdin.read.split.map(&:to_i)
  junction_count, road_count = numbers[0], numbers[1]
  roads = Array.new(junction_count + 1) { [] }
  road_count.times do |i|
    from, to, toll = numbers[2 + 3 * i, 3]
    roads[from] << [to, toll]
    roads[to] << [from, toll]
  end
  [junction_count, roads]
end

def cheapest_costs(roads, source)
  best_cost = Array.new(roads.size, Float::INFINITY)
  best_cost[source] = 0
  frontier = MinHeap.new
  frontier.push([0, source])
  until frontier.empty?
    cost_so_far, junction = frontier.pop
    next if cost_so_far > best_cost[junction] # stale entry

    roads[junction].each do |next_junction, toll|
      candidate = cost_so_far + toll
      if candidate < best_cost[next_junction]
        best_cost[next_junction] = candidate
        frontier.push([candidate, next_junction])
      end
    end
  end
  best_cost
end

junction_count, roads = read_network
answer = cheapest_costs(roads, 1)[junction_count]
puts answer == Float::INFINITY ? -1 : answer
