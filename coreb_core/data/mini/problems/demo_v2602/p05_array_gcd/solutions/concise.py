import sys
from math import gcd
from functools import reduce
n,*a=map(int,sys.stdin.buffer.read().split())
g=reduce(gcd,a,0)
print(g,a.count(g))
