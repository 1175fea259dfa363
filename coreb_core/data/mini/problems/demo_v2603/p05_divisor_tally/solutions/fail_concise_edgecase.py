n=int(input());c=0;i=1
while i*i<=n:
    if n%i==0:c+=2
    i+=1
print(c)
