import sys
from collections import OrderedDict
d=sys.stdin.buffer.read().split();c,n=int(d[0]),int(d[1])
o=OrderedDict();r=0
for x in d[2:2+n]:
    if x in o:o.move_to_end(x)
    else:
        r+=1;o[x]=1
        if len(o)>c:o.popitem(last=False)
print(r)
