# Z-function: z[i] is the length of the longest common prefix of s and s[i..].
def z_function(s)
  n = s.size
  z = Array.new(n, 0)
  left = 0
  right = 0
  (1...n).each do |i|
    z[i] = [right - i, z[i - left]].min if i < right
    z[i] += 1 while i + z[i] < n && s[z[i]] == s[i + z[i]]
    if i + z[i] > right
      left = i
      right = i + z[i]
    end
  end
  z
end

def count_occurrences(text, pattern)
  combined = "#{pattern}##{text}"
  z = z_function(combined)
  (pattern.size + 1...combined.size).count { |position| z[position] == pattern.size }
end

text = $stdin.gets.strip
pattern = $stdin.gets.strip
puts count_occurrences(text, pattern)
