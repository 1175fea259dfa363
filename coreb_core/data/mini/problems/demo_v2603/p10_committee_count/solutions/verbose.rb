MODULUS = 1_000_000_007

# Precomputes factorials and their modular inverses up to the given limit.
def build_tables(limit)
  factorial = Array.new(limit + 1, 1)
  (1..limit).each { |value| factorial[value] = factorial[value - 1] * value % MODULUS }
  inverse_factorial = Array.new(limit + 1, 1)
  inverse_factorial[limit] = factorial[limit].pow(MODULUS - 2, MODULUS)
  limit.downto(1) { |value| inverse_factorial[value - 1] = inverse_factorial[value] * value % MODULUS }
  [factorial, inverse_factorial]
end

def choose(n, k, factorial, inverse_factorial)
  return 0 if k.negative? || k > n

  factorial[n] * inverse_factorial[k] % MODULUS * inverse_factorial[n - k] % MODULUS
end

numbers = $stdin.read.split.map(&:to_i)
query_count = numbers[0]
queries = Array.new(query_count) { |index| [numbers[1 + 2 * index], numbers[2 + 2 * index]] }
largest = queries.map(&:first).max
factorial, inverse_factorial = build_tables(largest)
answers = queries.map { |n, k| choose(n, k, factorial, inverse_factorial) }
puts answers.join("\n")
