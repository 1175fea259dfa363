import sys
d=sys.stdin.read().split();r,c=int(d[0]),int(d[1]);g=[list(x) for x in d[2:2+r]]
k=0
for i in range(r):
    for j in range(c):
        if g[i][j]=='#':
            k+=1;g[i][j]='.';s=[(i,j)]
            while s:
                x,y=s.pop()
                for a,b in((x+1,y),(x-1,y),(x,y+1),(x,y-1)):
                    if 0<=a<r and 0<=b<c and g[a][b]=='#':g[a][b]='.';s.append((a,b))
print(k)
