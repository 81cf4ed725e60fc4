#!/usr/bin/env python3
"""The web board under many slow clients (docs/BENCHMARKS.md "The board in a browser", issue 45), on the built
release binaries:

  `chest board HUNT --http 127.0.0.1:PORT --http-token TOKEN --quiet` (a hunt of 12 teams, no broker: the board
  serves what it has while it keeps trying to reach one); then a child process opens SLOW connections (default
  15,000, more than the board's cap of 10,000) from ADDRESSES loopback addresses (default 300: 50 each, under the
  cap of 64 per address), 127.1.0.2 on, each with a request that never ends, and every 5 s sends each a header
  byte (enough to outlast the idle timeout of 10 s) and reopens those the board closed, so the board is over its
  cap all along. Once all are open, an honest screen's `GET /board.json?token=TOKEN` on a fresh connection every
  INTERVAL seconds (default 0.25), HONEST times (default 200), each timed to its last byte and failed after 10 s.

Prints the honest requests' p50, p95 and max, the failures, how many slow connections the board closed, the
board's peak RSS and the load, and fails when an honest request failed.

Usage: scripts/bench-board-slow.py [SLOW [ADDRESSES [HONEST [INTERVAL]]]]   (default 15000 300 200 0.25;
CHEST_BENCH_KEEP=1 keeps the temporary directory)
"""
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                     capture_output=True, text=True).stdout.strip()
WORK = tempfile.mkdtemp(prefix="chest-board-slow-bench-")
TOKEN = "bench-slow-connections-0123456789"
PROCESSES = []

# The slow clients, as a child of their own (their descriptors are not this process's): prints "open N" once all
# are open, then after each 5 s round "round R open N reopened M".
FLOOD = r"""
import resource, socket, sys, time
hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
port, count, addresses = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
per = -(-count // addresses)

def connect(index):
    a = index // per
    s = socket.socket()
    s.settimeout(2)
    try:
        s.bind((f"127.1.{a // 250}.{2 + a % 250}", 0))
        s.connect(("127.0.0.1", port))
        s.send(b"GET /board.json HTTP/1.1\r\nHost: board\r\nX-Slow: ")
    except OSError:
        s.close()
        return None
    return s

sockets = [None] * count
for index in range(count):
    sockets[index] = connect(index)
print(f"open {sum(s is not None for s in sockets)}", flush=True)
reopened, round_ = 0, 0
while True:
    began = time.monotonic()
    for index in range(count):
        s = sockets[index]
        if s is not None:
            try:
                s.send(b"a")
            except OSError:
                s.close()
                s = None
                reopened += 1
        if s is None:
            s = connect(index)
        sockets[index] = s
    round_ += 1
    print(f"round {round_} open {sum(s is not None for s in sockets)} reopened {reopened}", flush=True)
    time.sleep(max(0, 5 - (time.monotonic() - began)))
"""


def start(arguments, **options):
    process = subprocess.Popen(arguments, **options)
    PROCESSES.append(process)
    return process


def honest(port):
    """One honest screen's request: seconds to the last byte, or the reason it failed."""
    began = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.settimeout(max(0.1, 10 - (time.monotonic() - began)))
            s.sendall(f"GET /board.json?token={TOKEN} HTTP/1.0\r\nHost: localhost\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
                if time.monotonic() - began > 10:
                    return "timed out"
    except OSError as error:
        return str(error) or type(error).__name__
    if b" 200 " not in data.split(b"\r\n")[0] or b"team-1" not in data:
        return data[:60].decode(errors="replace") or "no answer"
    return time.monotonic() - began


def percentile(values, fraction):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * fraction))] if values else float("nan")


def main():
    slow = int(sys.argv[1]) if len(sys.argv) > 1 else 15_000
    addresses = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    interval = float(sys.argv[4]) if len(sys.argv) > 4 else 0.25
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    env = dict(os.environ, HOME=WORK, TZ="UTC", XDG_CONFIG_HOME=os.path.join(WORK, "config"))
    chest = os.path.join(BIN, "chest")
    hunt = os.path.join(WORK, "slow.hunt")
    subprocess.run([chest, "hunt", "create", "Slow hunt", "--broker", "mqtt://127.0.0.1:9", "-o", hunt], env=env,
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([chest, "hunt", "team", "add", "team", "--count", "12", "--hunt", hunt], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    port = benchlib.free_port()
    board = start([chest, "board", hunt, "--http", f"127.0.0.1:{port}", "--http-token", TOKEN, "--quiet"], env=env,
                  stdout=subprocess.DEVNULL, stderr=open(os.path.join(WORK, "board.err"), "w"))
    benchlib.wait_for("the board", lambda: isinstance(honest(port), float), 30, WORK)
    print(f"bench-board-slow: {slow} slow connections from {addresses} addresses; load {load()}")

    flood_out = os.path.join(WORK, "flood.out")
    start([sys.executable, "-c", FLOOD, str(port), str(slow), str(addresses)],
          stdout=open(flood_out, "w"), stderr=open(os.path.join(WORK, "flood.err"), "w"))
    flood = lambda: open(flood_out).read().split("\n")
    began = time.monotonic()
    benchlib.wait_for(f"{slow} slow connections", lambda: any(line.startswith("open ") for line in flood()), 300, WORK)
    opened = next(line for line in flood() if line.startswith("open "))
    print(f"  {opened.split()[1]} slow connections opened in {time.monotonic() - began:.1f} s; load {load()}")

    times, failures = [], []
    for _ in range(count):
        began = time.monotonic()
        result = honest(port)
        if isinstance(result, float):
            times.append(result * 1000)
        else:
            failures.append(result)
        time.sleep(max(0, interval - (time.monotonic() - began)))
    rounds = [line for line in flood() if line.startswith("round ")]
    last = rounds[-1].split() if rounds else ["round", "0", "open", "?", "reopened", "0"]
    print(f"  the flood: {last[1]} rounds of 5 s, {last[3]} open at the last, {last[5]} closed by the board and reopened")
    print(f"  honest /board.json: {len(times)} answered, p50 {percentile(times, 0.5):.1f} ms, "
          f"p95 {percentile(times, 0.95):.1f} ms, max {max(times, default=float('nan')):.1f} ms; "
          f"{len(failures)} failed {sorted(set(failures))[:3]}")
    print(f"  board peak RSS {status_kb(board.pid, 'VmHWM') / 1024:.1f} MB; load {load()}")
    if failures or not times:
        sys.exit(1)


def load():
    return "/".join(open("/proc/loadavg").read().split()[:3])


def status_kb(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


benchlib.run(main, PROCESSES, WORK)
