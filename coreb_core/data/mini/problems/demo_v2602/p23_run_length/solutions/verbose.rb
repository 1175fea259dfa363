# Encodes each block of consecutive equal letters as the letter and its length.
def run_length_encode(message)
  encoded = +""
  index = 0
  while index < message.length
    letter = message[index]
    run_end = index
    run_end += 1 while run_end < message.length && message[run_end] == letter
    encoded << letter << (run_end - index).to_s
    index = run_end
  end
  encoded
end

message = $stdin.gets.to_s.strip
puts run_length_encode(message)
