# Run inside a sandbox by test_jail_security.py: forks until the pids limit
# refuses, and reports how far it got.
import errno, os, signal, time
# Tasks already in the jail (the agent, this program, their threads).
before = sum(len(os.listdir("/proc/%s/task" % p)) for p in os.listdir("/proc") if p.isdigit())
kids, err = [], None
for _ in range(100000):
    try:
        pid = os.fork()
    except OSError as e:
        err = errno.errorcode[e.errno]
        break
    if pid == 0:
        time.sleep(300)
        os._exit(0)
    kids.append(pid)
print("BEFORE", before, flush=True)
print("FORKS", len(kids), err, flush=True)
for k in kids:
    os.kill(k, signal.SIGKILL)
for k in kids:
    os.waitpid(k, 0)
# the slots are free again
pid = os.fork()
if pid == 0:
    os._exit(7)
print("AFTER", os.WEXITSTATUS(os.waitpid(pid, 0)[1]), flush=True)
