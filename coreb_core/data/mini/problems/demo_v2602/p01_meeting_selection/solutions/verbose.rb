# Reads booking requests and reports how many can share one room without clashing.

def read_bookings(io)
  tokens = io.read.split.map(&:to_i)
  count = tokens.shift
  Array.new(count) { |i| [tokens[2 * i], tokens[2 * i + 1]] }
end

def max_bookings(bookings)
  accepted = 0
  free_from = 0
  # Earliest finishing booking first leaves the most room for the rest.
  bookings.sort_by { |(_start, finish)| finish }.each do |start, finish|
    next if start < free_from

    accepted += 1
    free_from = finish
  end
  accepted
end

bookings = read_bookings($stdin)
puts max_bookings(bookings)
