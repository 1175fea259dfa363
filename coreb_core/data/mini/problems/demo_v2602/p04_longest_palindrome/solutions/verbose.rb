# Finds the length of the longest stretch of letters that is a palindrome.

def grow_palindrome(text, left, right)
  while left >= 0 && right < text.length && text[left] == text[right]
    left -= 1
    right += 1
  end
  right - left - 1
end

def max_palindrome_span(text)
  (0...text.length).map do |center|
    odd = grow_palindrome(text, center, center)
    even = grow_palindrome(text, center, center + 1)
    [odd, even].max
  end.max
end

ribbon = $stdin.gets.to_s.strip
puts max_palindrome_span(ribbon)
