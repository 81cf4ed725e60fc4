#!/usr/bin/env bash
# gpsd's report to chestd's `watch` event while Argon2id work runs (docs/BENCHMARKS.md, sealed pages): 20 sealed
# 30 m places of one quest (format 3, the default place cost: 4 passes over 768 MiB) scattered along the demo walk,
# so chestd keeps deriving cell keys on its seal worker while the walk is replayed at 1 Hz; scripts/latency.py stamps
# gpsd's TPVs and chestd's fix events as they arrive.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s bench-build > /dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d /tmp/chest-seal-latency-XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
export TZ=UTC
. scripts/lib.sh
on_exit cleanup
mkdir -p "$work/chest" "$work/run" "$work/files" && chmod 700 "$work/run"
python3 - "$work/quest" <<'PY'
import random, sys
random.seed(7)
# 20 sealed 30 m places scattered along the demo walk, one quest with a declared search area, at the default cost.
with open(sys.argv[1], "w") as out:
    out.write("search-area: 47.3775,8.5425/3km\n")
    for index in range(1, 21):
        point = f"{47.3769 + random.uniform(-0.0003, 0.0013):.6f},{8.5417 + random.uniform(-0.0003, 0.0017):.6f}"
        out.write(f"message: s{index}\ntitle: sealed {index}\npage: page {index}\n  lock: location={point}/30m\n")
PY
XDG_CONFIG_HOME="$work/organiser" "$bin/chest" compose --quest "$work/quest" -o "$work/files" > /dev/null 2>&1
cp "$work/files"/*.locked "$work/chest/"
start_time=$(date -u +%Y-%m-%dT%H:%M:%SZ -d '+3 sec')
sed "s/^start .*/start $start_time/" demo/walk.txt > "$work/walk.txt"
"$bin/chest-walk" "$work/walk.txt" > "$work/walk.nmea"
port=$(free_port)
gpsfake -1 -p -q -s 38400 -P "$port" -c 0.2 -r '?WATCH={"enable":true,"json":true}' "$work/walk.nmea" > /dev/null 2>&1 &
fake=$!; pids+=("$fake")
for _ in $(seq 1 100); do (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
XDG_CONFIG_HOME="$work/reader" CHEST_DIR="$work/chest" CHEST_SOCKET="$work/run/s" "$bin/chestd" --gpsd "127.0.0.1:$port" 2> "$work/chestd.log" &
chestd=$!; pids+=("$chestd")
for _ in $(seq 1 200); do [ -S "$work/run/s" ] && break; sleep 0.05; done
python3 scripts/latency.py "127.0.0.1:$port" "$work/run/s" "$bin/chest" > "$work/latency.out" &
probe=$!; pids+=("$probe")
wait "$fake" || true
sleep 1
status=$(XDG_CONFIG_HOME="$work/reader" CHEST_SOCKET="$work/run/s" "$bin/chest" status --json 2>/dev/null || true)
wait "$probe" || true
echo "== gpsd's report to the watch event while Argon2id runs (20 sealed places of one quest, default cost)"
cat "$work/latency.out" 2>/dev/null
python3 -c 'import json, sys
try: s = json.loads(sys.argv[1])
except ValueError: sys.exit(0)
print("   sealed work over the walk:", json.dumps(s.get("seal", s.get("sealed", "n/a"))))' "$status"

# From a place's third confirming fix to its page opening, keys derived late (docs/DESIGN.md "Late keys"): a 300 m
# walk at 1 Hz past 20 places, for one organiser's quest unloaded and with the other core busy, and for 20 organisers.
echo "== third confirming fix to the page opening (20 sealed 30 m places on a 300 m walk at 1 Hz, default cost)"
python3 scripts/seal-reach.py "$bin" quest
python3 scripts/seal-reach.py "$bin" quest --load
python3 scripts/seal-reach.py "$bin" organisers
