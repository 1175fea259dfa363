s=input().strip();L={};l=b=0
for i,c in enumerate(s):
    if c in L:l=L[c]+1
    L[c]=i;b=max(b,i-l+1)
print(b)
