# Longest proper border of every prefix (the prefix function).
def prefix_function(text)
  border = Array.new(text.length, 0)
  matched = 0
  (1...text.length).each do |index|
    matched = border[matched - 1] while matched.positive? && text[index] != text[matched]
    matched += 1 if text[index] == text[matched]
    border[index] = matched
  end
  border
end

def smallest_repeating_unit(text)
  length = text.length
  candidate = length - prefix_function(text).last
  (length % candidate).zero? ? candidate : length
end

pattern = $stdin.gets.strip
puts smallest_repeating_unit(pattern)
