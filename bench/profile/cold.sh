#!/usr/bin/env bash
# Where the time of a cold acquire goes: runs sandboxd (--pool-size 0) under
# strace tracing only marker system calls (--seccomp-bpf keeps the rest at
# full speed), makes K acquires with sandboxd-bench, and splits each into
# phases with phases.py. Needs bench/run.sh to have built build-bench.
#   bench/profile/cold.sh [K=30]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$ROOT/build-bench
K=${1:-30}
command -v strace >/dev/null || apt-get install -y strace >/dev/null
TMP=$(mktemp -d /tmp/sandboxd-profile-XXXXXX)
CG=sandboxd-profile-$$
PID=""
cleanup() {
  if [[ -n $PID ]]; then
    # SIGTERM to sandboxd itself (strace's child); strace exits with it.
    local child
    child=$(pgrep -P "$PID" -x sandboxd || true)
    [[ -n $child ]] && kill -TERM "$child" 2>/dev/null
    for _ in $(seq 1 300); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$PID" 2>/dev/null && { kill -KILL "$PID" 2>/dev/null; [[ -n $child ]] && kill -KILL "$child" 2>/dev/null; }
    wait "$PID" 2>/dev/null || true
  fi
  for i in $(seq 1 200); do
    pids=$(cat /sys/fs/cgroup/*/"$CG"/cgroup.procs /sys/fs/cgroup/*/"$CG"/*/cgroup.procs 2>/dev/null | sort -u || true)
    [[ -z $pids ]] && break
    kill -KILL $pids 2>/dev/null || true
    sleep 0.02
  done
  for top in /sys/fs/cgroup/*/"$CG"; do
    [[ -d $top ]] || continue
    for d in "$top"/*/; do [[ -d $d ]] && rmdir "$d" 2>/dev/null || true; done
    rmdir "$top" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT
strace -f -ttt --seccomp-bpf -s 64 -o "$TMP/strace.log" \
  -e trace=clone,clone3,execve,bind,sendto,recvfrom,sendmsg,recvmsg,pivot_root,setresuid,seccomp \
  "$BUILD/sandboxd" --listen 127.0.0.1:0 --data-dir "$TMP/data" --cgroup-parent "$CG" --pool-size 0 \
  --log-level warn >"$TMP/sandboxd.log" 2>&1 &
PID=$!  # strace
"$BUILD/bench/sandboxd-bench" wait-up --data-dir "$TMP/data" --timeout 30
"$BUILD/bench/sandboxd-bench" acquire --data-dir "$TMP/data" --label cold --samples "$K" --warmup 3
python3 "$ROOT/bench/profile/phases.py" "$TMP/strace.log"
