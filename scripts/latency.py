"""Latency from gpsd's report to chestd's `watch` event: one client reads gpsd directly, the other runs
`chest watch --json`; both stamp each line on arrival, and fix events are matched to TPVs by the epoch's time."""
import json, socket, statistics, subprocess, sys, threading, time, os

server, socket_path, chest = sys.argv[1], sys.argv[2], sys.argv[3]
host, port = server.rsplit(":", 1)
tpv_first, event_first = {}, {}

def read_gpsd():
    for _ in range(100):  # gpsfake starts its gpsd a moment after it starts itself
        try:
            connection = socket.create_connection((host, int(port)))
            break
        except OSError:
            time.sleep(0.1)
    connection.sendall(b'?WATCH={"enable":true,"json":true};\n')
    for line in connection.makefile():
        stamp = time.monotonic()
        try: report = json.loads(line)
        except ValueError: continue
        if report.get("class") == "TPV" and report.get("time") and report.get("mode", 0) >= 2:
            tpv_first.setdefault(report["time"][:19], stamp)

def read_chest():
    env = dict(os.environ, CHEST_SOCKET=socket_path)
    watch = subprocess.Popen([chest, "watch", "--json", "--timeout", "100"], stdout=subprocess.PIPE, text=True, env=env)
    for line in watch.stdout:
        stamp = time.monotonic()
        event = json.loads(line)
        if event.get("event") == "fix" and event.get("at") and event.get("mode", 0) >= 2:
            event_first.setdefault(event["at"][:19], stamp)

threads = [threading.Thread(target=read_gpsd, daemon=True), threading.Thread(target=read_chest, daemon=True)]
for thread in threads: thread.start()
time.sleep(98)
delays = sorted((event_first[t] - tpv_first[t]) * 1000 for t in tpv_first if t in event_first)
if not delays:
    print("   latency: no matched epochs"); sys.exit(1)
print(f"   gpsd report -> watch event over {len(delays)} epochs: median {statistics.median(delays):.1f} ms, "
      f"p95 {delays[int(len(delays) * 0.95) - 1]:.1f} ms, max {delays[-1]:.1f} ms (target: under 50 ms)")
