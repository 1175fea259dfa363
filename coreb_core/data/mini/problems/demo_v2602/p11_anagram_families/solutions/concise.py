import sys
from collections import Counter
w=sys.stdin.read().split()[1:]
c=Counter(''.join(sorted(x)) for x in w)
print(len(c),max(c.values()))
