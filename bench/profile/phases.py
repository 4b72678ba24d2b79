#!/usr/bin/env python3
"""Splits cold acquires into phases from an `strace -f -ttt` log of sandboxd.

bench/profile/cold.sh writes the log; only marker system calls are traced
(strace --seccomp-bpf), so the other calls run at full speed. Prints the
median and p90 of each phase over the acquires found, in milliseconds.
"""
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^(\d+)\s+(\d+\.\d+)\s+(.*)$")


def parse(path):
    pending = {}  # pid -> (syscall, first line) of an <unfinished ...> call
    events = []  # (time, pid, syscall, text, result_time)
    for raw in open(path, errors="replace"):
        m = LINE.match(raw.rstrip("\n"))
        if not m:
            continue
        pid, t, rest = int(m.group(1)), float(m.group(2)), m.group(3)
        if rest.startswith("<... "):
            name = rest[5:].split(" ", 1)[0]
            start = pending.pop(pid, None)
            if start:
                events.append((start[1], pid, name, start[2] + rest, t))
            continue
        name = rest.split("(", 1)[0]
        if rest.endswith("<unfinished ...>"):
            pending[pid] = (name, t, rest)
            continue
        events.append((t, pid, name, rest, t))
    events.sort()
    return events


def main(path):
    events = parse(path)
    phases = defaultdict(list)
    order = []

    def add(name, ms):
        if name not in order:
            order.append(name)
        phases[name].append(ms)

    # One acquire = from the POST's recvmsg to the 201's sendmsg.
    i = 0
    while i < len(events):
        t, pid, name, text, _ = events[i]
        if name == "recvmsg" and "POST /local-sandbox " in text:
            marks = {"request": t}
            agent = None
            j = i + 1
            while j < len(events):
                tj, pj, nj, xj, endj = events[j]
                if nj == "sendmsg" and "HTTP/1.1 201" in xj:
                    marks["response"] = tj
                    break
                if nj == "bind" and "agent.sock" in xj and "bind" not in marks:
                    marks["bind"] = tj
                elif nj in ("clone", "clone3") and "CLONE_NEWNS" in xj and "clone" not in marks:
                    marks["clone"] = tj
                    marks["clone_ret"] = endj
                elif nj == "execve" and "sandbox-agent" in xj and "execve" not in marks:
                    marks["execve"] = tj
                    agent = pj
                elif nj == "sendto" and '"go"' in xj and "go" not in marks:
                    marks["go"] = tj
                elif pj == agent and nj == "recvfrom" and '"go"' in xj:
                    marks["agent_go"] = endj
                elif pj == agent and nj == "pivot_root":
                    marks["pivot_root"] = tj
                elif pj == agent and nj == "sendto" and '"userns"' in xj:
                    marks["userns"] = tj
                elif nj == "sendto" and '"mapped"' in xj:
                    marks["mapped"] = tj
                elif pj == agent and nj == "setresuid" and "setresuid" not in marks:
                    marks["setresuid"] = tj
                elif pj == agent and nj == "seccomp" and "filter=" in xj and "seccomp" not in marks:
                    marks["seccomp"] = tj
                elif pj == agent and nj == "sendto" and '"ready"' in xj:
                    marks["ready"] = tj
                elif pj != agent and nj == "recvfrom" and '"ready"' in xj:
                    marks["ready_seen"] = endj
                j += 1
            need = ["request", "bind", "clone", "clone_ret", "execve", "go", "agent_go", "pivot_root", "userns",
                    "mapped", "setresuid", "seccomp", "ready", "ready_seen", "response"]
            if all(k in marks for k in need):
                ms = lambda a, b: (marks[b] - marks[a]) * 1000
                add("HTTP in, blocking-pool hop, Workspace::Create (dirs, layers.json fsync), agent.sock", ms("request", "bind"))
                add("cgroup Create (4 hierarchies, limits), spec memfd, socketpair", ms("bind", "clone"))
                add("clone(CLONE_NEW*) until the child exec'd (vfork)", ms("clone", "clone_ret"))
                add("AddProcess to 4 cgroups, send go", ms("clone_ret", "go"))
                add("  [agent] exec + dynamic loading until it waits for go", ms("execve", "agent_go") if marks["agent_go"] > marks["execve"] else 0)
                add("[agent] go -> pivot_root: building the root (mounts, mkdirs)", ms("agent_go", "pivot_root"))
                add("[agent] pivot_root -> unshare(NEWUSER), send userns", ms("pivot_root", "userns"))
                add("uid/gid maps written by sandboxd, send mapped", ms("userns", "mapped"))
                add("[agent] mapped -> setresuid", ms("mapped", "setresuid"))
                add("[agent] setresuid -> seccomp: dropping capabilities, building the filter", ms("setresuid", "seccomp"))
                add("[agent] seccomp load -> send ready", ms("seccomp", "ready"))
                add("ready -> 201 sent: handles, register, SQLite insert, JSON", ms("ready_seen", "response"))
                add("TOTAL request read -> 201 sent", ms("request", "response"))
            i = j
        i += 1

    n = len(phases.get("TOTAL request read -> 201 sent", []))
    print(f"{n} cold acquires traced (markers only; strace adds a little to each marked call)")
    print(f"{'phase':<90} {'p50 ms':>8} {'p90 ms':>8}")
    for name in order:
        v = sorted(phases[name])
        p90 = v[min(len(v) - 1, int(0.9 * len(v)))]
        print(f"{name:<90} {statistics.median(v):8.2f} {p90:8.2f}")


if __name__ == "__main__":
    main(sys.argv[1])
