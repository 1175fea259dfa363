# Largest common piece length for all rods, plus how many rods already have it.

def euclid_gcd(first, second)
  first, second = second, first % second until second.zero?
  first
end

def read_lengths(io)
  count = io.gets.to_i
  io.gets.split.first(count).map(&:to_i)
end

lengths = read_lengths($stdin)
piece_length = lengths.inject(0) { |common, length| euclid_gcd(common, length) }
untouched = lengths.count { |length| length == piece_length }
puts [piece_length, untouched].join(' ')
