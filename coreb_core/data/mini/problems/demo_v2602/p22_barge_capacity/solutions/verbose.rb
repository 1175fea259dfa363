# Number of days needed when each day loads packages in order up to the capacity.
def days_needed(weights, capacity)
  days = 1
  load_today = 0
  weights.each do |weight|
    if load_today + weight > capacity
      days += 1
      load_today = 0
    end
    load_today += weight
  end
  days
end

def smallest_capacity(weights, day_limit)
  low = weights.max
  high = weights.sum
  while low < high
    middle = (low + high) / 2
    if days_needed(weights, middle) <= day_limit
      high = middle
    else
      low = middle + 1
    end
  end
  low
end

package_count, day_limit = $stdin.gets.split.map(&:to_i)
weights = $stdin.gets.split.map(&:to_i).first(package_count)
puts smallest_capacity(weights, day_limit)
