import sys
M=10**9+7
d=sys.stdin.read().split();o=[]
for i in range(int(d[0])):
    a,n=int(d[1+2*i]),int(d[2+2*i])
    o.append((n+1)%M if a==1 else (pow(a,n+1,M)-1)*pow(a-1,M-2,M)%M)
print("\n".join(map(str,o)))
