import sys
d=sys.stdin.buffer.read().split();n=int(d[0])
e=[]
for i in range(n):e+=[(int(d[1+2*i]),0),(int(d[2+2*i]),-1)]
e.sort();c=b=0
for _,t in e:
    if t:c-=1
    else:c+=1;b=max(b,c)
print(b)
