"""From a sealed place's third confirming fix to its page opening (docs/BENCHMARKS.md "Sealed pages (format 3)",
docs/DESIGN.md "Late keys"), with real processes: chest compose at the default place cost, gpsfake replaying a
300 m walk at 2 m/s, fixes at 1 Hz, past 20 sealed 30 m places, chestd deriving the cells' keys on its seal worker. Each opened
page's `reachedAt` and `openedAt` (chest read --json) give the latency.

    python3 scripts/seal-reach.py BIN SCENARIO [--load]

SCENARIO: `quest` (20 places of one organiser's quest, one grid), `organisers` (20 messages composed one by one,
20 grids over 20 default areas), `place` (one message, one place, its default area) or `pin` (one message whose set
holds a place and a PIN, format 5, the PIN given with `chest pin` before the walk). --load keeps one core busy for
the whole walk."""
import json, math, os, socket, statistics, subprocess, sys, tempfile, time
from datetime import datetime, timedelta, timezone

bin_dir, scenario = sys.argv[1], sys.argv[2]
load = "--load" in sys.argv
origin = (47.3700, 8.5400)

def point(east, north=0.0):
    per_degree = 6371008.8 * math.pi / 180
    return (origin[0] + north / per_degree, origin[1] + east / (per_degree * math.cos(math.radians(origin[0]))))

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def parse(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))

# 20 places every 15 m along the path, 10 m either side of it: each is walked through, none is stood in. A place
# alone lies 10 m beside the path 60 m from its start, so the reader walks into it.
places = [point(15 * index + 10, 10 if index % 2 else -10) for index in range(20)]
if scenario in ("place", "pin"):
    places = [point(60, 10)]
work = tempfile.mkdtemp(prefix="chest-seal-reach-")
env = dict(os.environ, TZ="UTC")
files = os.path.join(work, "files")
os.makedirs(files)
organiser = dict(env, XDG_CONFIG_HOME=os.path.join(work, "organiser"))
started = time.monotonic()
if scenario == "quest":
    with open(os.path.join(work, "places.quest"), "w") as quest:
        quest.write(f"search-area: {origin[0]},{origin[1]}/3km\n")
        for index, (lat, lon) in enumerate(places):
            quest.write(f"message: s{index}\ntitle: sealed {index}\npage: page {index}\n  lock: location={lat:.6f},{lon:.6f}/30m\n")
    subprocess.run([f"{bin_dir}/chest", "compose", "--quest", os.path.join(work, "places.quest"), "-o", files],
                   env=organiser, check=True, capture_output=True)
elif scenario == "pin":
    lat, lon = places[0]
    subprocess.run([f"{bin_dir}/chest", "compose", "--title", "sealed with a PIN", "--page", "page with a PIN",
                    "--lock", f"location={lat:.6f},{lon:.6f}/30m", "--lock", "pin=4821",
                    "-o", os.path.join(files, "pin.locked")], env=organiser, check=True, capture_output=True)
else:
    for index, (lat, lon) in enumerate(places):
        subprocess.run([f"{bin_dir}/chest", "compose", "--title", f"sealed {index}", "--page", f"page {index}",
                        "--lock", f"location={lat:.6f},{lon:.6f}/30m", "-o", os.path.join(files, f"s{index}.locked")],
                       env=organiser, check=True, capture_output=True)
composed = time.monotonic() - started

chest_dir, run_dir = os.path.join(work, "chest"), os.path.join(work, "run")
os.makedirs(chest_dir)
os.makedirs(run_dir, mode=0o700)
for name in os.listdir(files):
    if name.endswith(".locked"):
        os.link(os.path.join(files, name), os.path.join(chest_dir, name))

start = (datetime.now(timezone.utc) + timedelta(seconds=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
end = point(320 if len(places) > 1 else 120)
with open(os.path.join(work, "walk.txt"), "w") as walk:
    walk.write(f"start {start}\nspeed 2\n{origin[0]:.6f} {origin[1]:.6f} 410 hold 2\n{end[0]:.6f} {end[1]:.6f} 410 hold 2\n")
with open(os.path.join(work, "walk.nmea"), "w") as nmea:
    subprocess.run([f"{bin_dir}/chest-walk", os.path.join(work, "walk.txt")], stdout=nmea, check=True)

port = free_port()
processes = []
try:
    if load:
        processes.append(subprocess.Popen(["sh", "-c", "while :; do :; done"]))
    fake = subprocess.Popen(["gpsfake", "-1", "-p", "-q", "-s", "38400", "-P", str(port), "-c", "0.2",
                             "-r", '?WATCH={"enable":true,"json":true}', os.path.join(work, "walk.nmea")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(env, TMPDIR=work))
    processes.append(fake)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            break
        except OSError:
            time.sleep(0.1)
    reader = dict(env, XDG_CONFIG_HOME=os.path.join(work, "reader"), CHEST_DIR=chest_dir,
                  CHEST_SOCKET=os.path.join(run_dir, "s"))
    chestd = subprocess.Popen([f"{bin_dir}/chestd", "--gpsd", f"127.0.0.1:{port}"], env=reader,
                              stderr=open(os.path.join(work, "chestd.log"), "w"))
    processes.append(chestd)
    def chest(*arguments):
        return subprocess.run([f"{bin_dir}/chest", *arguments], env=reader, capture_output=True, text=True)

    if scenario == "pin":
        # The PIN is kept for the page before the walk reaches the place (docs/DESIGN.md "Sealed pages").
        for _ in range(200):
            listed = chest("list", "--json")
            if listed.returncode == 0 and json.loads(listed.stdout or "[]"):
                break
            time.sleep(0.1)
        kept = chest("pin", json.loads(listed.stdout)[0]["id"], "4821")
        if kept.returncode != 0:
            print(f"   chest pin failed: {kept.stderr.strip()}")
            sys.exit(1)

    def waiting():
        status = json.loads(chest("status", "--json").stdout or "{}")
        return (status.get("sealed") or {}).get("cellsWaiting") or 0

    most_waiting = 0
    while fake.poll() is None:
        most_waiting = max(most_waiting, waiting())
        time.sleep(1)
    walked = time.monotonic()
    while time.monotonic() - walked < 900 and waiting() > 0:
        time.sleep(0.5)
    latencies = []
    for item in json.loads(chest("list", "--json").stdout):
        page = json.loads(chest("read", "--json", item["id"]).stdout)["pages"][0]
        if page.get("open") and page.get("reachedAt"):
            latencies.append((parse(page["openedAt"]) - parse(page["reachedAt"])).total_seconds())
    latencies.sort()
    label = {"quest": "20 places of one quest (one grid)", "organisers": "20 places of 20 organisers (20 grids)",
             "place": "a place alone (its default area)", "pin": "a place with a PIN (format 5)"}[scenario]
    label += ", the other core busy" if load else ", unloaded"
    if not latencies:
        print(f"   {label}: nothing opened (chestd log in {work})")
        sys.exit(1)
    print(f"   {label}: {len(latencies)} of {len(places)} opened; third fix -> open: median {statistics.median(latencies):.1f} s, "
          f"p90 {latencies[int(len(latencies) * 0.9) - 1]:.1f} s, worst {latencies[-1]:.1f} s; "
          f"at most {most_waiting} cells waiting, the last tried {time.monotonic() - walked:.0f} s after the walk ended (compose took {composed:.0f} s)")
finally:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
    subprocess.run(["rm", "-rf", work])
