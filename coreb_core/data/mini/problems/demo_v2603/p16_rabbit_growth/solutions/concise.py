M=10**9+7
def f(n):
    if n==0:return 0,1
    a,b=f(n>>1);c=a*(2*b-a)%M;d=(a*a+b*b)%M
    return (d,(c+d)%M) if n&1 else (c,d)
print(f(int(input()))[0])
