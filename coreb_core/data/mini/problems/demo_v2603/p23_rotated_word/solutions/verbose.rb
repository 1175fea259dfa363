# Reports whether one word is a rotation of another, with the smallest shift.

def smallest_shift(word, target)
  return nil unless word.length == target.length

  # every rotation of the word is a substring of the word written twice
  (word + word).index(target)
end

word = $stdin.gets.to_s.strip
target = $stdin.gets.to_s.strip
shift = smallest_shift(word, target)
if shift.nil?
  puts 'NO'
else
  puts 'YES'
  puts shift
end
