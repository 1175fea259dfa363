n,b=map(int,input().split());s=0
while n>b:s+=n%b;n//=b
print(s+n)
