MODULUS = 1_000_000_007

# Multiplies two 2x2 matrices given as nested arrays, modulo MODULUS.
def multiply(left, right)
  (0..1).map do |row|
    (0..1).map do |col|
      (left[row][0] * right[0][col] + left[row][1] * right[1][col]) % MODULUS
    end
  end
end

def matrix_power(base, exponent)
  result = [[1, 0], [0, 1]]
  while exponent.positive?
    result = multiply(result, base) if exponent.odd?
    base = multiply(base, base)
    exponent >>= 1
  end
  result
end

# Number of rabbit pairs in the given month, modulo MODULUS.
def pairs_in_month(month)
  matrix_power([[1, 1], [1, 0]], month)[0][1]
end

month = $stdin.read.strip.to_i
puts pairs_in_month(month)
