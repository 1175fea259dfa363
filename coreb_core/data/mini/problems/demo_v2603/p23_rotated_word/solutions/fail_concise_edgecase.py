s,t=input().strip(),input().strip()
k=(s+s).find(t)
print(f"YES\n{k}" if k>=0 else "NO")
