# A small binary heap ordered by the given block (true when a should sit above b).
class BinaryHeap
  def initialize(&higher_priority)
    @items = []
    @higher = higher_priority
  end

  def size
    @items.size
  end

  def empty?
    @items.empty?
  end

  def top
    @items.first
  end

  def push(value)
    @items << value
    index = @items.size - 1
    while index.positive?
      parent = (index - 1) / 2
      break unless @higher.call(@items[index], @items[parent])

      @items[index], @items[parent] = @items[parent], @items[index]
      index = parent
    end
  end

  def pop
    top_value = @items.first
    last = @items.pop
    return top_value if @items.empty?

    @items[0] = last
    sift_down(0)
    top_value
  end

  private

  def sift_down(index)
    loop do
      left = 2 * index + 1
      right = left + 1
      best = index
      best = left if left < @items.size && @higher.call(@items[left], @items[best])
      best = right if right < @items.size && @higher.call(@items[right], @items[best])
      break if best == index

      @items[index], @items[best] = @items[best], @items[index]
      index = best
    end
  end
end

numbers = $stdin.read.split.map(&:to_i)
count = numbers.shift
lower_half = BinaryHeap.new { |a, b| a > b }
upper_half = BinaryHeap.new { |a, b| a < b }
output = []
numbers.first(count).each do |weight|
  if lower_half.empty? || weight <= lower_half.top
    lower_half.push(weight)
  else
    upper_half.push(weight)
  end
  # Keep the lower half equal in size or exactly one larger.
  if lower_half.size > upper_half.size + 1
    upper_half.push(lower_half.pop)
  elsif upper_half.size > lower_half.size
    lower_half.push(upper_half.pop)
  end
  output << lower_half.top
end
puts output
