# Decides whether a line of brackets is properly nested.

OPENER_FOR_CLOSER = { ')' => '(', ']' => '[', '}' => '{' }.freeze

# Scan left to right, keeping the openers that still wait for their closer.
def balanced?(sequence)
  pending_openers = []
  sequence.each_char do |symbol|
    if OPENER_FOR_CLOSER.key?(symbol)
      return false if pending_openers.empty?
      return false unless pending_openers.last == OPENER_FOR_CLOSER[symbol]

      pending_openers.pop
    else
      pending_openers.push(symbol)
    end
  end
  pending_openers.empty?
end

sequence = $stdin.gets.to_s.strip
puts balanced?(sequence) ? 'YES' : 'NO'
