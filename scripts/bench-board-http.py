#!/usr/bin/env python3
"""The board in a browser at scale (docs/BENCHMARKS.md "The board in a browser"), on the built release binaries:

  a real mosquitto on loopback; `chest-bench hunt publish` writes a hunt of 100 teams sharing positions (a visible
  target per page) and publishes 100 credited receipts per team, retained, all but the last HOLD; `chest board
  HUNT --http 127.0.0.1:PORT --quiet` takes them in; then

  1. the first load: GET / (the whole page, as a browser's first request), its style and script and GET
     /board.json, timed end to end, RUNS times each, on a fresh connection each; then headless Chromium's whole
     load of the page (--dump-dom), beside its time for an empty page;
  2. live updates: BROWSERS clients hold GET /events open (as EventSource does); the held receipts are published one
     at a time, and for each, every client's arrival time of the `unlock` event minus the event's `receivedAt` (the
     board's clock when it believed the receipt; the same machine) is the latency. The next receipt goes out once
     every client heard the previous one.

Usage: scripts/bench-board-http.py [BROWSERS [HOLD [RUNS]]]   (default 50 100 20; CHEST_BENCH_KEEP=1 keeps the
temporary directory)
"""
import datetime
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                     capture_output=True, text=True).stdout.strip()
WORK = tempfile.mkdtemp(prefix="chest-board-http-bench-")
PROCESSES = []


def wait_for(what, condition, timeout):
    benchlib.wait_for(what, condition, timeout, WORK)


def start(arguments, **options):
    process = subprocess.Popen(arguments, **options)
    PROCESSES.append(process)
    return process


def broker():
    return benchlib.mosquitto(WORK, "mosquitto", start, "max_queued_messages 20000\n")


def get(port, path):
    """GET over a fresh HTTP/1.0 connection: (seconds to the last byte, status line, body bytes)."""
    begin = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(f"GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n".encode())
        chunks = []
        while True:
            chunk = s.recv(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    elapsed = time.monotonic() - begin
    data = b"".join(chunks)
    head, _, body = data.partition(b"\r\n\r\n")
    return elapsed, head.split(b"\r\n")[0].decode(), body


def iso(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


class Browser(threading.Thread):
    """An EventSource: GET /events held open; the arrival time of each unlock's line, by page title."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /events HTTP/1.0\r\nHost: localhost\r\n\r\n")
        self.heard = {}
        self.first_state = threading.Event()

    def run(self):
        pending = b""
        while True:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                return
            now = time.time()
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line == b"event: sections":
                    self.first_state.set()
                elif line.startswith(b'data: {"event":"unlock"'):
                    event = json.loads(line[6:])
                    self.heard[(event["team"], event["title"])] = now - iso(event["receivedAt"])


def summary(values, unit=1000, suffix="ms"):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(len(values) * q))] * unit
    return (f"median {pick(0.5):.1f} {suffix}, p95 {pick(0.95):.1f} {suffix}, max {values[-1] * unit:.1f} {suffix} "
            f"over {len(values)}")


def main():
    browsers = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    hold = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    env = dict(os.environ, HOME=WORK, TZ="UTC", XDG_CONFIG_HOME=os.path.join(WORK, "config"))
    mqtt = broker()
    hunt = os.path.join(WORK, "bench.hunt")
    publisher = start([os.path.join(BIN, "chest-bench"), "hunt", "publish", f"127.0.0.1:{mqtt}", hunt,
                       "--share-positions", "--hold", str(hold)],
                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    print("bench-board-http:", publisher.stdout.readline().strip())
    with open(hunt) as f:
        teams = len(json.load(f)["teams"])
    total = teams * 100 - hold
    http = benchlib.free_port()
    started = time.monotonic()
    board = start([os.path.join(BIN, "chest"), "board", hunt, "--http", f"127.0.0.1:{http}", "--quiet"], env=env,
                  stdout=subprocess.DEVNULL, stderr=open(os.path.join(WORK, "board.err"), "w"))

    def credited():
        try:
            state = json.loads(get(http, "/board.json")[2])
        except (OSError, ValueError):
            return False
        return sum(team["pages"] for team in state["teams"]) == total
    wait_for(f"the board to credit {total} receipts", credited, 600)
    print(f"  the board took in {total} retained receipts in {time.monotonic() - started:.1f} s (polled through /board.json)")

    for path in ["/", "/board.css", "/board.js", "/board.json"]:
        timings, size = [], 0
        for _ in range(runs):
            elapsed, status, body = get(http, path)
            assert status.endswith("200 OK"), status
            timings.append(elapsed)
            size = len(body)
        # The first GET / renders the page for the board's state; the others reuse that rendering.
        cold = f"; the first (rendering) {timings[0] * 1000:.1f} ms" if path == "/" else ""
        print(f"  first load GET {path} ({size / 1e3:.0f} kB): {summary(timings)}{cold}")

    if shutil.which("chromium"):
        # A real browser's whole first load (page, style, script, the stream's first state), less its own start:
        # headless Chromium dumping the page, minus the same for an empty page.
        def chromium(url):
            profile = tempfile.mkdtemp(dir=WORK)
            begin = time.monotonic()
            subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                            "--dump-dom", url], check=True, capture_output=True)
            return time.monotonic() - begin
        empty = [chromium("data:text/html,<p>empty</p>") for _ in range(5)]
        loads = [chromium(f"http://127.0.0.1:{http}/") for _ in range(5)]
        print(f"  headless Chromium --dump-dom: the board {summary(loads)}; an empty page {summary(empty)}")

    clients = [Browser(http) for _ in range(browsers)]
    for client in clients:
        client.start()
    for client in clients:
        client.first_state.wait(60)
    latencies = []
    for index in range(hold):
        publisher.stdin.write("next\n")
        publisher.stdin.flush()
        publisher.stdout.readline()
        number = total + index
        key = (f"team-{number % teams:03d}", f"Clue {number // teams + 1}")
        wait_for(f"{browsers} browsers to hear {key}", lambda: all(key in c.heard for c in clients), 30)
        latencies += [c.heard[key] for c in clients]
    print(f"  {browsers} browsers, {hold} receipts one at a time, from the board believing each to every browser "
          f"reading its unlock: {summary(latencies)}")
    resident = open(f"/proc/{board.pid}/status").read().split("VmRSS:")[1].split("\n")[0].strip()
    print(f"  the board's VmRSS at the end: {resident}")


benchlib.run(main, PROCESSES, WORK)
