# Counts the routes between the first and the last vertex of a DAG.
MODULUS = 1_000_000_007

def read_graph
  vertex_count, edge_count = $stdin.gets.split.map(&:to_i)
  successors = Array.new(vertex_count + 1) { [] }
  in_degree = Array.new(vertex_count + 1, 0)
  edge_count.times do
    from, to = $stdin.gets.split.map(&:to_i)
    successors[from] << to
    in_degree[to] += 1
  end
  [vertex_count, successors, in_degree]
end

# Kahn's algorithm; returns the vertices in a valid topological order.
def topological_order(vertex_count, successors, in_degree)
  remaining = in_degree.dup
  order = (1..vertex_count).select { |vertex| remaining[vertex].zero? }
  index = 0
  while index < order.length
    vertex = order[index]
    index += 1
    successors[vertex].each do |neighbour|
      remaining[neighbour] -= 1
      order << neighbour if remaining[neighbour].zero?
    end
  end
  order
end

vertex_count, successors, in_degree = read_graph
routes = Array.new(vertex_count + 1, 0)
routes[1] = 1
topological_order(vertex_count, successors, in_degree).each do |vertex|
  successors[vertex].each do |neighbour|
    routes[neighbour] = (routes[neighbour] + routes[vertex]) % MODULUS
  end
end
puts routes[vertex_count]
