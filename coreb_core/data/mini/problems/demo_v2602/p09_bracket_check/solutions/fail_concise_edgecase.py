s=input().strip();m={')':'(',']':'[','}':'{'};t=[]
for c in s:
    if c in m:
        if not t or t.pop()!=m[c]:print("NO");exit()
    else:t.append(c)
print("YES")
