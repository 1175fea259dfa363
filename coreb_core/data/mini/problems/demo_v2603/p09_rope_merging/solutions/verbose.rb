# A small binary min-heap, since Ruby has no built-in priority queue.
class MinHeap
  def initialize
    @items = []
  end

  def size
    @items.size
  end

  def push(value)
    @items << value
    index = @items.size - 1
    while index.positive?
      parent = (index - 1) / 2
      break if @items[parent] <= @items[index]

      @items[parent], @items[index] = @items[index], @items[parent]
      index = parent
    end
  end

  def pop
    top = @items.first
    last = @items.pop
    return top if @items.empty?

    @items[0] = last
    index = 0
    loop do
      left = 2 * index + 1
      right = left + 1
      smallest = index
      smallest = left if left < @items.size && @items[left] < @items[smallest]
      smallest = right if right < @items.size && @items[right] < @items[smallest]
      break if smallest == index

      @items[smallest], @items[index] = @items[index], @items[smallest]
      index = smallest
    end
    top
  end
end

def minimum_merge_cost(lengths)
  ropes = MinHeap.new
  lengths.each { |length| ropes.push(length) }
  total_cost = 0
  while ropes.size > 1
    combined = ropes.pop + ropes.pop
    total_cost += combined
    ropes.push(combined)
  end
  total_cost
end

numbers = $stdin.read.split.map(&:to_i)
rope_count = numbers[0]
puts minimum_merge_cost(numbers[1, rope_count])
