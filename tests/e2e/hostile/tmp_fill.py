# Run inside a sandbox by test_jail_security.py: fills /tmp until it is full,
# reports the error and the free space, then frees it.
import errno, os
total, err = 0, None
buf = b"\x02" * 65536
with open("/tmp/fill", "wb", buffering=0) as f:
    while True:
        try:
            n = f.write(buf)
        except OSError as e:
            err = errno.errorcode[e.errno]
            break
        total += n
        if total > (1 << 30):
            break
print("TMP", total, err, flush=True)
st = os.statvfs("/tmp")
print("FREE", st.f_bavail * st.f_frsize, flush=True)
os.unlink("/tmp/fill")
st = os.statvfs("/tmp")
print("FREE_AFTER", st.f_bavail * st.f_frsize, flush=True)
