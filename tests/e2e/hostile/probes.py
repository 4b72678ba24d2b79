# Run inside a sandbox by test_jail_security.py: tries each escape and prints
# "PROBE <name> <outcome>" (the errno name of the refusal) per attempt.
import ctypes, errno, json, os, signal, socket, stat, subprocess, sys, time

P = json.load(open("params.json"))
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def name(e):
    return errno.errorcode.get(e, str(e))


def out(key, value):
    print("PROBE", key, value, flush=True)


def call(key, fn):
    """Prints OK <repr> or the errno name of the OSError."""
    try:
        r = fn()
        out(key, "OK " + json.dumps(r) if r is not None else "OK")
    except OSError as e:
        out(key, name(e.errno))


def sysc(key, *args):
    ctypes.set_errno(0)
    r = libc.syscall(*args)
    out(key, "OK %d" % r if r >= 0 else name(ctypes.get_errno()))


# ---- host files outside the binds
for key, path in P["paths"].items():
    call("read_" + key, lambda path=path: open(path, "rb").read(1) and None)
call("list_sys", lambda: os.listdir("/sys"))

# ---- host processes
pids = sorted(int(x) for x in os.listdir("/proc") if x.isdigit())
out("proc_pids", json.dumps(pids))
out("self_pid", os.getpid())
call("kill_host_pid", lambda: os.kill(P["host_pid"], 0))
call("proc_host_pid", lambda: os.stat("/proc/%d" % P["host_pid"]) and None)
# pid 1 (the agent) ignores signals from inside its namespace
call("kill_agent", lambda: os.kill(1, signal.SIGKILL))
time.sleep(0.2)
state = [l for l in open("/proc/1/status") if l.startswith("State:")][0].split()[1]
out("agent_state", state)

# ---- read-only system
call("write_usr", lambda: open("/usr/jail-probe", "w").close())
call("write_usr_bin", lambda: open("/usr/bin/python3", "ab").close())
call("write_root", lambda: open("/jail-probe", "w").close())
call("mkdir_root", lambda: os.mkdir("/jail-probe"))
call("write_etc", lambda: open("/etc/passwd", "a").close())
call("create_etc", lambda: open("/etc/evil", "w").close())
call("create_data", lambda: open("/data/fine", "w").close())
call("create_tmp", lambda: open("/tmp/fine", "w").close())
call("mknod", lambda: os.mknod("/tmp/blockdev", stat.S_IFBLK | 0o600, os.makedev(8, 0)))

# ---- network
def tcp(addr):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(5)
    try:
        s.connect(addr)
        return "connected"
    finally:
        s.close()
call("tcp_loopback_port", lambda: tcp(("127.0.0.1", P["port"])))
call("tcp_host_address", lambda: tcp((P["host_ip"], P["port"])))
call("tcp_external", lambda: tcp(("1.1.1.1", 443)))
call("udp_external", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("8.8.8.8", 53)))
out("interfaces", json.dumps([n for _, n in socket.if_nameindex()]))

# ---- privileged system calls
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
ctypes.set_errno(0)
r = libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)
out("mount", "OK" if r == 0 else name(ctypes.get_errno()))
libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
ctypes.set_errno(0)
r = libc.umount2(b"/data", 2)
out("umount", "OK" if r == 0 else name(ctypes.get_errno()))
sysc("unshare_user", 272, 0x10000000)             # CLONE_NEWUSER
sysc("unshare_mount", 272, 0x00020000)            # CLONE_NEWNS
sysc("setns", 308, 0, 0)
sysc("chroot", 161, b"/tmp")
sysc("pivot_root", 155, b"/tmp", b"/tmp")
sysc("ptrace_attach_1", 101, 16, 1, 0, 0)         # PTRACE_ATTACH to the agent
sysc("init_module", 175, 0, 0, b"")
sysc("finit_module", 313, 0, b"", 0)
sysc("open_by_handle_at", 304, -100, 0, 0)        # AT_FDCWD
sysc("bpf", 321, 0, 0, 0)
sysc("keyctl", 250, 0, 0, 0, 0, 0)
sysc("add_key", 248, b"user", b"k", b"v", 1, -4)
sysc("perf_event_open", 298, 0, 0, -1, -1, 0)
sysc("kexec_load", 246, 0, 0, 0, 0)
sysc("reboot", 169, 0xfee1dead, 672274793, 0x4321fedc, 0)
sysc("swapon", 167, b"/tmp/x", 0)
sysc("userfaultfd", 323, 0)
sysc("io_uring_setup", 425, 1, 0)
sysc("process_vm_readv", 310, 1, 0, 0, 0, 0, 0)
sysc("syslog", 103, 3, 0, 0)
call("sethostname", lambda: socket.sethostname("evil"))
call("setgroups", lambda: os.setgroups([]))
call("setuid_1000", lambda: os.setuid(1000))

# ---- /proc
call("proc1_root", lambda: os.listdir("/proc/1/root/.."))
call("proc1_cwd", lambda: os.listdir("/proc/1/cwd"))
call("proc1_fd", lambda: os.listdir("/proc/1/fd"))
call("proc1_environ", lambda: open("/proc/1/environ", "rb").read() and None)
call("proc1_mem", lambda: open("/proc/1/mem", "rb").close())
out("root_listing", json.dumps(sorted(os.listdir("/"))))
out("root_dotdot", json.dumps(sorted(os.listdir("/.."))))
out("self_root_dotdot", json.dumps(sorted(os.listdir("/proc/self/root/.."))))
call("proc_sys_hostname", lambda: open("/proc/sys/kernel/hostname", "w").write("evil"))
call("proc_sys_drop_caches", lambda: open("/proc/sys/vm/drop_caches", "w").write("3"))
call("proc_sys_core_pattern", lambda: open("/proc/sys/kernel/core_pattern", "w").write("|/tmp/x"))
for entry in P["masked"]:
    def st(entry=entry):
        s = os.stat("/proc/" + entry)
        return [oct(s.st_mode), os.major(s.st_rdev), os.minor(s.st_rdev), s.st_size,
                len(open("/proc/" + entry, "rb").read(4096))]
    call("masked_" + entry, st)
out("mountinfo", json.dumps(open("/proc/self/mountinfo").read()))
call("list_cgroupfs", lambda: os.listdir("/sys/fs/cgroup"))

# ---- credentials
status = dict(l.rstrip("\n").split(":\t", 1) for l in open("/proc/self/status") if ":\t" in l)
out("status", json.dumps({k: status[k] for k in
    ("Uid", "Gid", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")}))
out("uid_map", json.dumps(open("/proc/self/uid_map").read()))
out("gid_map", json.dumps(open("/proc/self/gid_map").read()))

# ---- setuid binaries
for path in P["setuid"]:
    s = os.stat(path)
    out("setuid_stat_" + os.path.basename(path), json.dumps([bool(s.st_mode & 0o4000), s.st_uid]))
st = os.statvfs("/usr")
out("usr_flags", json.dumps([bool(st.f_flag & os.ST_RDONLY), bool(st.f_flag & os.ST_NOSUID)]))
p = subprocess.run(["/usr/bin/mount", "-t", "tmpfs", "none", "/tmp"], capture_output=True, text=True)
out("run_mount", json.dumps([p.returncode, p.stderr.splitlines()[0] if p.stderr else ""]))
p = subprocess.run(["/usr/bin/su", "-c", "touch /usr/su-was-here"], capture_output=True, text=True)
out("run_su", json.dumps([p.returncode, os.path.exists("/usr/su-was-here")]))
p = subprocess.run(["/usr/bin/umount", "-l", "/data"], capture_output=True, text=True)
out("run_umount", json.dumps([p.returncode, os.path.ismount("/data")]))
out("done", "yes")
