# Groups words into families of anagrams and reports the family statistics.

def family_key(word)
  word.each_char.sort.join
end

def read_words
  tokens = $stdin.read.split
  word_count = tokens.first.to_i
  tokens.drop(1).first(word_count)
end

families = Hash.new { |hash, key| hash[key] = [] }
read_words.each { |word| families[family_key(word)] << word }

largest_family = families.values.map(&:size).max
puts "#{families.size} #{largest_family}"
