# Counts the primes inside a closed window [low, high].

# Sieve of Eratosthenes that skips even numbers entirely.
def prime_flags(limit)
  flags = Array.new(limit + 1, false)
  flags[2] = true if limit >= 2
  3.step(limit, 2) { |odd| flags[odd] = true }
  factor = 3
  while factor * factor <= limit
    if flags[factor]
      (factor * factor).step(limit, 2 * factor) { |multiple| flags[multiple] = false }
    end
    factor += 2
  end
  flags
end

def count_primes_between(low, high)
  flags = prime_flags(high)
  (low..high).count { |value| flags[value] }
end

low, high = $stdin.gets.split.map(&:to_i)
puts count_primes_between(low, high)
