# Union-find structure with path compression and union by size.
class DisjointSet
  def initialize(size)
    @parent = (0...size).to_a
    @size = Array.new(size, 1)
  end

  def find(node)
    root = node
    root = @parent[root] while @parent[root] != root
    while @parent[node] != root
      next_node = @parent[node]
      @parent[node] = root
      node = next_node
    end
    root
  end

  def union(first, second)
    root_a = find(first)
    root_b = find(second)
    return false if root_a == root_b

    root_a, root_b = root_b, root_a if @size[root_a] < @size[root_b]
    @parent[root_b] = root_a
    @size[root_a] += @size[root_b]
    true
  end
end

# Kruskal's algorithm: cheapest cables first, skip cables that would form a loop.
def minimum_spanning_cost(station_count, cables)
  sets = DisjointSet.new(station_count + 1)
  total_cost = 0
  used_cables = 0
  cables.sort_by { |cable| cable[:cost] }.each do |cable|
    next unless sets.union(cable[:from], cable[:to])

    total_cost += cable[:cost]
    used_cables += 1
  end
  used_cables == station_count - 1 ? total_cost : -1
end

numbers = $stdin.read.split.map(&:to_i)
station_count = numbers[0]
cable_count = numbers[1]
cables = Array.new(cable_count) do |index|
  from, to, cost = numbers[2 + 3 * index, 3]
  { from: from, to: to, cost: cost }
end
puts minimum_spanning_cost(station_count, cables)
