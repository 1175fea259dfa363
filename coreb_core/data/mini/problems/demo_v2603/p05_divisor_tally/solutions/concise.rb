n=gets.to_i;c=0;i=1
while i*i<=n
  c+=i*i==n ? 1 : 2 if n%i==0
  i+=1
end
p c
