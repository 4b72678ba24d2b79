# Run inside a sandbox by test_jail_security.py: allocates until the memory
# limit kills it.
chunks = []
for i in range(1, 100000):
    chunks.append(b"\x01" * (1 << 20))   # written, so resident
    print("MiB", i, flush=True)
print("NOT KILLED", flush=True)
