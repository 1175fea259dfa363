# Min-heap of task numbers, used to always pick the smallest ready task.
class MinHeap
  def initialize
    @items = []
  end

  def empty?
    @items.empty?
  end

  def push(value)
    @items << value
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
      break if @items[parent] <= @items[index]

      @items[parent], @items[index] = @items[index], @items[parent]
      index = parent
    end
  end

  def sift_down(index)
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
  end
end

def read_graph
  numbers = $stdin.read.split.map(&:to_i)
  task_count, rule_count = numbers[0], numbers[1]
  successors = Array.new(task_count + 1) { [] }
  in_degree = Array.new(task_count + 1, 0)
  rule_count.times do |i|
    before = numbers[2 + 2 * i]
    after = numbers[3 + 2 * i]
    successors[before] << after
    in_degree[after] += 1
  end
  [task_count, successors, in_degree]
end

def smallest_order(task_count, successors, in_degree)
  ready = MinHeap.new
  (1..task_count).each { |task| ready.push(task) if in_degree[task].zero? }
  order = []
  until ready.empty?
    task = ready.pop
    order << task
    successors[task].each do |follower|
      in_degree[follower] -= 1
      ready.push(follower) if in_degree[follower].zero?
    end
  end
  order
end

task_count, successors, in_degree = read_graph
order = smallest_order(task_count, successors, in_degree)
# A shorter order means some tasks depend on each other in a loop.
puts(order.size == task_count ? order.join(' ') : 'IMPOSSIBLE')
