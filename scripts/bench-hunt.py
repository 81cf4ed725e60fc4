#!/usr/bin/env python3
"""The hunt benchmarks of docs/BENCHMARKS.md "Hunts", on the built release binaries (make bench runs this):

  1. from an unlock to the organiser's board: a real mosquitto on loopback, one team's chestd, `chest board --json`;
     messages with a past time lock dropped into the team's chest one at a time; for each, the moment the board's
     line was read minus the unlock's `openedAt` (chestd's clock; the same machine);
  2. the board at 100 teams and 10,000 receipts: `chest-bench hunt` (in-process, per message), then the same
     receipts published retained to the broker and `chest board --once` timed on them, with a fresh journal and
     again with the journal of the first run; then the journal's replay alone (the broker unreachable).

Every receipt is one the board credits: its message was composed for the hunt (page keys in the hunt file), it
carries a proof made with the page key, and its reader is claimed by its team.

Usage: scripts/bench-hunt.py [UNLOCKS]   (default 200; 0 skips part 1; CHEST_BENCH_KEEP=1 keeps the temporary
directory)
"""
import datetime
import os
import re
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
# chestd is a link to chest, the one program, which SwiftPM does not make.
subprocess.run(["sh", os.path.join(ROOT, "scripts", "link-programs.sh"), BIN], check=True)
WORK = tempfile.mkdtemp(prefix="chest-hunt-bench-")
PROCESSES = []
# As examples/mosquitto/hunt.conf: the board's subscription receives every retained receipt at once.
HUNT_QUEUE = "max_queued_messages 20000\n"


def wait_for(what, condition, timeout):
    benchlib.wait_for(what, condition, timeout, WORK)


def world(name):
    """A private world: its own config (identity, joined hunt), chest and control socket."""
    run = os.path.join(WORK, name, "run")
    os.makedirs(run, mode=0o700)
    os.chmod(run, 0o700)
    env = dict(os.environ, HOME=os.path.join(WORK, name), TZ="UTC", XDG_CONFIG_HOME=os.path.join(WORK, name, "config"),
               CHEST_DIR=os.path.join(WORK, name, "chest"), CHEST_SOCKET=os.path.join(run, "chestd.sock"),
               CHEST_GPSD="127.0.0.1:9")
    os.makedirs(env["CHEST_DIR"])
    return env


def chest(env, *arguments):
    return subprocess.run([os.path.join(BIN, "chest"), *arguments], env=env, check=True, capture_output=True,
                          text=True).stdout


def start(arguments, env=None, **options):
    process = subprocess.Popen(arguments, env=env, **options)
    PROCESSES.append(process)
    return process


def stop(process):
    process.terminate()
    process.wait()


def summary(values):
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return (f"min {values[0]:.1f} ms, median {values[len(values) // 2]:.1f} ms, p95 {p95:.1f} ms, "
            f"max {values[-1]:.1f} ms")


def iso_seconds(text):
    """An ISO 8601 UTC time as chest writes it (milliseconds optional) in seconds since 1970."""
    form = "%Y-%m-%dT%H:%M:%S.%fZ" if "." in text else "%Y-%m-%dT%H:%M:%SZ"
    return datetime.datetime.strptime(text, form).replace(tzinfo=datetime.timezone.utc).timestamp()


def broker(name, extra=""):
    return benchlib.mosquitto(WORK, name, start, extra)


def unlock_latency(port, count):
    print(f"== 1. from an unlock to the board's line: one team, {count} past time locks dropped 50 ms apart")
    organiser, team = world("organiser"), world("team")
    hunt = os.path.join(WORK, "bench.hunt")
    chest(organiser, "hunt", "create", "Bench hunt", "--broker", f"mqtt://127.0.0.1:{port}", "-o", hunt)
    chest(organiser, "hunt", "team", "add", "red", "--hunt", hunt, "-o", os.path.join(WORK, "red.join"))
    chest(team, "hunt", "join", os.path.join(WORK, "red.join"))
    stage = os.path.join(WORK, "stage")
    os.makedirs(stage)
    for index in range(count):
        chest(organiser, "compose", "-o", os.path.join(stage, f"m{index}.locked"), "--title", f"bench {index}",
              "--page", f"page {index}", "--lock", "time=2020-01-01T00:00:00Z", "--hunt", hunt)

    daemon = start([os.path.join(BIN, "chestd"), "--gpsd", "127.0.0.1:9"], env=team,
                   stdout=subprocess.DEVNULL, stderr=open(os.path.join(WORK, "chestd.log"), "w"))
    wait_for("chestd's socket", lambda: os.path.exists(team["CHEST_SOCKET"]), 15)
    board = start([os.path.join(BIN, "chest"), "board", hunt, "--json"], env=organiser, stdout=subprocess.PIPE,
                  stderr=open(os.path.join(WORK, "board.err"), "w"), text=True, bufsize=1)
    lines = []

    def read():
        for line in board.stdout:
            lines.append((time.time(), line))
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    wait_for("red online on the board", lambda: any('"online":true' in line for _, line in lines), 20)

    dropped = {}
    for index in range(count):
        dropped[f"bench {index}"] = time.time()
        os.rename(os.path.join(stage, f"m{index}.locked"), os.path.join(team["CHEST_DIR"], f"m{index}.locked"))
        time.sleep(0.05)
    unlocks = lambda: [(at, line) for at, line in lines if '"event":"unlock"' in line]
    wait_for(f"{count} unlocks on the board", lambda: len(unlocks()) >= count, 60)
    to_board, from_drop, to_open = [], [], []
    for at, line in unlocks():
        opened = iso_seconds(re.search(r'"openedAt":"([^"]+)"', line).group(1))
        title = re.search(r'"title":"([^"]+)"', line).group(1)
        to_board.append((at - opened) * 1000)
        from_drop.append((at - dropped[title]) * 1000)
        to_open.append((opened - dropped[title]) * 1000)
    stop(board)
    stop(daemon)
    print(f"   openedAt to the board's line: {summary(to_board)} (target: under 100 ms)")
    print(f"   file renamed into the chest to the board's line: {summary(from_drop)}; of which to openedAt:"
          f" {summary(to_open)}")


def many_receipts(port, name, label, runs, replay=False):
    """The receipts published retained to the broker on `port`, then `chest board --once` timed on them; with
    `replay`, then once more on a copy of the hunt whose broker is unreachable: the journal's replay alone."""
    organiser = world("organiser-" + name)
    hunt = os.path.join(WORK, name + ".hunt")
    subprocess.run([os.path.join(BIN, "chest-bench"), "hunt", "publish", f"127.0.0.1:{port}", hunt], check=True)
    if replay:
        alone = os.path.join(WORK, name + "-replay.hunt")
        with open(hunt) as source, open(alone, "w") as copy:
            copy.write(source.read().replace(f"mqtt://127.0.0.1:{port}", f"mqtt://127.0.0.1:{benchlib.free_port()}"))
        os.chmod(alone, 0o600)
        runs = runs + ["the journal replayed alone (broker unreachable)"]
    for run in runs:
        target = hunt
        extra = []
        if run.startswith("the journal replayed alone"):
            shutil.copyfile(hunt + ".board", alone + ".board")
            target, extra = alone, ["--timeout", "1"]
        timed = subprocess.run(["/usr/bin/time", "-v", os.path.join(BIN, "chest"), "board", target, "--once"] + extra,
                               env=organiser, capture_output=True, text=True)
        rows = [row.split() for row in timed.stdout.splitlines()[1:] if row.strip() and row.split()[0].isdigit()]
        pages = sum(int(row[2]) for row in rows)
        wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", timed.stderr)
        seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", timed.stderr).group(1))
        cpu = sum(float(re.search(rf"{kind} time \(seconds\): ([\d.]+)", timed.stderr).group(1)) for kind in ("User", "System"))
        journal = os.path.getsize(target + ".board") / 1e6
        print(f"   {label}: chest board --once, {run}: {len(rows)} teams, {pages} pages; wall {seconds:.2f} s (of which the"
              f" closing quiet second 1 s), CPU {cpu:.2f} s, peak RSS {rss / 1024:.1f} MB; journal {journal:.1f} MB")


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    try:
        port = broker("hunt", HUNT_QUEUE)
        if count > 0:
            unlock_latency(port, count)
        print("== 2. the board at 100 teams and 10,000 receipts")
        subprocess.run([os.path.join(BIN, "chest-bench"), "hunt"], check=True)
        many_receipts(port, "queue20000", "max_queued_messages 20000", ["a fresh journal", "the journal of the run before"],
                      replay=True)
        # Mosquitto's default queue (1,000 beyond 20 in flight) drops the rest of a new subscription's retained burst.
        many_receipts(broker("default"), "default", "Mosquitto's default queue", ["a fresh journal"])
    finally:
        for process in PROCESSES:
            if process.poll() is None:
                process.terminate()
                process.wait()
        if os.environ.get("CHEST_BENCH_KEEP"):
            print(f"bench-hunt: kept {WORK}")
        else:
            shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
