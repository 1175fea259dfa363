# Reads the relay network and counts stations the signal reaches within the hop limit.
def read_input
  numbers = $stdin.read.split.map(&:to_i)
  node_count, link_count, source, max_hops = numbers.shift(4)
  links = Array.new(node_count + 1) { [] }
  link_count.times do
    first, second = numbers.shift(2)
    links[first] << second
    links[second] << first
  end
  [links, source, max_hops]
end

def reachable_count(links, source, max_hops)
  distance = { source => 0 }
  queue = [source]
  until queue.empty?
    station = queue.shift
    next if distance[station] >= max_hops

    links[station].each do |neighbour|
      next if distance.key?(neighbour)

      distance[neighbour] = distance[station] + 1
      queue.push(neighbour)
    end
  end
  distance.size
end

links, source, max_hops = read_input
puts reachable_count(links, source, max_hops)
