# Decides whether campers can be split into two sides with every rival pair separated.

def read_rivalries
  numbers = $stdin.read.split.map(&:to_i)
  camper_count, rivalry_count = numbers[0], numbers[1]
  rivals = Array.new(camper_count + 1) { [] }
  rivalry_count.times do |i|
    first = numbers[2 + 2 * i]
    second = numbers[3 + 2 * i]
    rivals[first] << second
    rivals[second] << first
  end
  [camper_count, rivals]
end

# Depth-first colouring with an explicit stack; returns false on a conflict.
def colour_group(start, rivals, team)
  team[start] = :red
  stack = [start]
  until stack.empty?
    camper = stack.pop
    other_team = team[camper] == :red ? :blue : :red
    rivals[camper].each do |rival|
      if team[rival].nil?
        team[rival] = other_team
        stack.push(rival)
      elsif team[rival] == team[camper]
        return false
      end
    end
  end
  true
end

def bipartition_possible?(camper_count, rivals)
  team = Array.new(camper_count + 1)
  (1..camper_count).all? do |camper|
    !team[camper].nil? || colour_group(camper, rivals, team)
  end
end

camper_count, rivals = read_rivalries
puts bipartition_possible?(camper_count, rivals) ? 'YES' : 'NO'
