MODULUS = 1_000_000_007

# Returns [sum of base^0..base^(count-1), base^count], both reduced modulo MODULUS.
def series_with_power(base, count)
  return [0, 1] if count.zero?

  half_sum, half_power = series_with_power(base, count / 2)
  total = (half_sum + half_sum * half_power) % MODULUS
  power = half_power * half_power % MODULUS
  if count.odd?
    total = (total + power) % MODULUS
    power = power * base % MODULUS
  end
  [total, power]
end

numbers = $stdin.read.split.map(&:to_i)
query_count = numbers.shift
query_count.times do |index|
  base = numbers[2 * index] % MODULUS
  top_exponent = numbers[2 * index + 1]
  puts series_with_power(base, top_exponent + 1).first
end
