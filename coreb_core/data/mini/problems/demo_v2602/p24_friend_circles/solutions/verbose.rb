# Union-find over pupils 1..n that remembers how many circles there are.
class CircleTracker
  attr_reader :circle_count

  def initialize(pupil_count)
    @parent = (0..pupil_count).to_a
    @size = Array.new(pupil_count + 1, 1)
    @circle_count = pupil_count
  end

  def leader(pupil)
    root = pupil
    root = @parent[root] while @parent[root] != root
    # flatten the path we just walked
    while @parent[pupil] != root
      following = @parent[pupil]
      @parent[pupil] = root
      pupil = following
    end
    root
  end

  def befriend(first, second)
    first_root = leader(first)
    second_root = leader(second)
    return if first_root == second_root

    first_root, second_root = second_root, first_root if @size[first_root] < @size[second_root]
    @parent[second_root] = first_root
    @size[first_root] += @size[second_root]
    @circle_count -= 1
  end
end

pupil_count, entry_count = $stdin.gets.split.map(&:to_i)
tracker = CircleTracker.new(pupil_count)
lines = []
entry_count.times do
  first, second = $stdin.gets.split.map(&:to_i)
  tracker.befriend(first, second)
  lines << tracker.circle_count
end
puts lines
