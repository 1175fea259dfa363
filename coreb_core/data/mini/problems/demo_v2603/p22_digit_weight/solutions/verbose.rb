# Adds up the digit values of a number written in another base.

def digit_values(number, base)
  return [0] if number.zero?

  values = []
  until number.zero?
    number, remainder = number.divmod(base)
    values.unshift(remainder)
  end
  values
end

number, base = $stdin.gets.split.map { |token| Integer(token, 10) }
puts digit_values(number, base).sum
