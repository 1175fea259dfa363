L,R=map(int,input().split())
s=bytearray([1])*(R+1);s[0]=0;s[1]=0
for i in range(2,int(R**.5)+1):
    if s[i]:s[i*i::i]=bytes(len(range(i*i,R+1,i)))
print(sum(s[L:R+1]))
