M=10**9+7
def f(n)
  return [0,1] if n==0
  a,b=f(n>>1);c=a*(2*b-a)%M;d=(a*a+b*b)%M
  n.odd? ? [d,(c+d)%M] : [c,d]
end
puts f(gets.to_i)[0]
