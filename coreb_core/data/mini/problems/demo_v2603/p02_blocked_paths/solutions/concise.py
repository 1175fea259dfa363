import sys
d=sys.stdin.read().split();h,w=int(d[0]),int(d[1]);M=10**9+7
f=[0]*w;f[0]=1
for r in d[2:2+h]:
    for j in range(w):
        if r[j]=='#':f[j]=0
        elif j:f[j]=(f[j]+f[j-1])%M
print(f[-1])
