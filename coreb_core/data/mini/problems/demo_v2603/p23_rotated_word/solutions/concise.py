s,t=input().strip(),input().strip()
k=(s+s).find(t) if len(s)==len(t) else -1
print(f"YES\n{k}" if k>=0 else "NO")
