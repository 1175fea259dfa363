# Returns a hash prime => exponent for the given positive integer.
def factorize(number)
  factors = Hash.new(0)
  prime = 2
  while prime * prime <= number
    while (number % prime).zero?
      factors[prime] += 1
      number /= prime
    end
    prime += 1
  end
  factors[number] += 1 if number > 1
  factors
end

def divisor_count(number)
  factorize(number).values.reduce(1) { |product, exponent| product * (exponent + 1) }
end

puts divisor_count($stdin.gets.to_i)
