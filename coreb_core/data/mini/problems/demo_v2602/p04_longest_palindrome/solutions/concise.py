s=input().strip();n=len(s);b=1
for c in range(2*n-1):
    l,r=c//2,(c+1)//2
    while l>=0 and r<n and s[l]==s[r]:l-=1;r+=1
    b=max(b,r-l-1)
print(b)
