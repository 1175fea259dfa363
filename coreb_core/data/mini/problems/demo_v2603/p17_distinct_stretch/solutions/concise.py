s=input().strip();L={};l=b=0
for i,c in enumerate(s):
    if L.get(c,-1)>=l:l=L[c]+1
    L[c]=i;b=max(b,i-l+1)
print(b)
