# Counts misses of a least-recently-used store.
# Ruby hashes keep insertion order, so re-inserting a key marks it as newest
# and the first key of the hash is always the least recently used one.
class RecentlyUsedShelf
  def initialize(capacity)
    @capacity = capacity
    @keys = {}
  end

  # Returns true when the key was missing and had to be fetched.
  def request(key)
    if @keys.key?(key)
      @keys.delete(key)
      @keys[key] = true
      return false
    end
    @keys[key] = true
    @keys.shift while @keys.size > @capacity
    true
  end
end

tokens = $stdin.read.split.map(&:to_i)
capacity, request_count = tokens[0], tokens[1]
shelf = RecentlyUsedShelf.new(capacity)
trips = tokens[2, request_count].count { |key| shelf.request(key) }
puts trips
