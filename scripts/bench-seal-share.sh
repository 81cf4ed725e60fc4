#!/usr/bin/env bash
# One sender, one share (issue 45; docs/BENCHMARKS.md "Sealed pages (format 3)", docs/SECURITY.md "A message's share of the
# reader"): COUNT files of one sender, each within the seal budget at its edge (eight grids at 4 passes and 768 MiB
# over a 2 km area, random key slots, `chest-bench seal hostile`), in a real chestd's chest while gpsfake replays a
# walk of WALK_SECONDS (default 240) at 1.4 m/s through their area at 1 Hz. Prints chestd's CPU (utime + stime from
# /proc) over the walk as a share of one core.
# Usage: scripts/bench-seal-share.sh [COUNT...]   (default: 2 5)
set -euo pipefail
cd "$(dirname "$0")/.."
make -s bench-build > /dev/null
bin=$(swift build -c release --show-bin-path)
seconds=${WALK_SECONDS:-240}
if [ $# -gt 0 ]; then counts=("$@"); else counts=(2 5); fi
. scripts/lib.sh
export TZ=UTC
tick=$(getconf CLK_TCK)
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

for count in "${counts[@]}"; do
    work=$(mktemp -d /tmp/chest-seal-share-XXXXXX)
    pids=()
    cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
    on_exit cleanup
    mkdir -p "$work/chest" "$work/run" "$work/files" && chmod 700 "$work/run"
    "$bin/chest-bench" seal hostile "$count" "$work/files" 47.3769,8.5417
    cp "$work/files"/*.locked "$work/chest/"
    # Straight north from the areas' centre at 1.4 m/s: 1.4 × seconds metres, 111,195 m a degree.
    end=$(python3 -c "print(f'{47.3769 + 1.4 * $seconds / 111195:.6f}')")
    printf 'start %s\nspeed 1.4\n47.376900 8.541700 410\n%s 8.541700 410\n' \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ -d '+3 sec')" "$end" > "$work/walk.txt"
    "$bin/chest-walk" "$work/walk.txt" > "$work/walk.nmea"
    port=$(free_port)
    gpsfake -1 -p -q -s 38400 -P "$port" -c 0.2 -r '?WATCH={"enable":true,"json":true}' "$work/walk.nmea" > /dev/null 2>&1 &
    fake=$!; pids+=("$fake")
    for _ in $(seq 1 100); do (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
    XDG_CONFIG_HOME="$work/reader" CHEST_DIR="$work/chest" CHEST_SOCKET="$work/run/s" "$bin/chestd" --gpsd "127.0.0.1:$port" 2> "$work/chestd.log" &
    chestd=$!; pids+=("$chestd")
    start=$(date +%s.%N); before=$(cpu "$chestd")
    wait "$fake" || true
    after=$(cpu "$chestd"); stop=$(date +%s.%N)
    python3 -c 'import sys
count, cpu, wall = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
print(f"== {count} files of one sender (8 grids at 4 passes, 768 MiB each): chestd {cpu:.1f} s of CPU over {wall:.0f} s of walk, {100 * cpu / wall:.0f} % of a core")' \
        "$count" "$(echo "($after - $before) / $tick" | bc -l)" "$(echo "$stop - $start" | bc -l)"
    # A file set aside would make the figure a fewer files' one: say so.
    grep "set aside" "$work/chestd.log" | head -3 || true
    cleanup
    trap - EXIT INT TERM
done
