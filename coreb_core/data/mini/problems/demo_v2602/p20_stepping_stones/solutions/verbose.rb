# Fewest leaps from the first stone to the last one, or -1 when impossible.
def fewest_leaps(leap_limits)
  last_stone = leap_limits.size - 1
  leaps = 0
  window_start = 0
  window_end = 0
  while window_end < last_stone
    # farthest stone reachable with one more leap from the current window
    farthest = (window_start..window_end).map { |stone| stone + leap_limits[stone] }.max
    return -1 if farthest <= window_end

    window_start = window_end + 1
    window_end = farthest
    leaps += 1
  end
  leaps
end

stone_count = $stdin.gets.to_i
leap_limits = $stdin.gets.split.map(&:to_i).first(stone_count)
puts fewest_leaps(leap_limits)
