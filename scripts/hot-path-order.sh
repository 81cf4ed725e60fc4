#!/usr/bin/env bash
# Writes Sources/chest/HotPath.order, the order in which the release link lays out chest's functions
# (docs/BENCHMARKS.md "Memory"): those chestd runs on every fix first, hottest first, so that the code a walk keeps
# resident sits together. It runs chestd under callgrind on scripts/bench.sh step 7's chest (10,000 visible 30 m
# location locks on a grid around a hill) over one lap of the hill walk, counting from the moment gpsd is connected,
# and lists every function of the program that ran as the section name the compiler gave it (`.text.` and the
# mangled name). Run it after large changes to the fix path; it takes several minutes (valgrind runs chestd about
# fifty times slower). Needs valgrind and gpsfake (make deps).
set -euo pipefail
cd "$(dirname "$0")/.."
make -s bench-build > /dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d /tmp/chest-order-XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
export XDG_CONFIG_HOME="$work/config" TZ=UTC
. scripts/lib.sh
on_exit cleanup
wait_for() { # SECONDS DESCRIPTION COMMAND…: until COMMAND succeeds
    local seconds=$1 what=$2; shift 2
    for _ in $(seq 1 $((seconds * 10))); do "$@" && return 0; sleep 0.1; done
    echo "hot-path-order: $what did not happen within $seconds s" >&2; exit 1
}

echo "== the chest: scripts/bench.sh's 10,000 messages as chest compose writes them, ingested by chestd"
mkdir -p "$work/files" "$work/chest" "$work/run" && chmod 700 "$work/run"
# CHEST_BENCH_MESSAGES=DIR takes bench.sh's composed files from DIR (composing them takes minutes).
files="${CHEST_BENCH_MESSAGES:-$work/files}"
if bench_messages_missing "$files"; then compose_bench_messages "$bin" "$work" "$files"; fi
CHEST_DIR="$work/chest" CHEST_SOCKET="$work/run/s" CHEST_GPSD=127.0.0.1:9 "$bin/chestd" 2> "$work/ingest.log" &
pid=$!; pids+=("$pid")
wait_for 30 "chestd's socket" test -S "$work/run/s"
cp "$files"/m*.locked "$work/chest/"
ingested() { [ "$(ls "$work/chest/messages" | grep -c '\.locked$')" -ge 10000 ]; }
wait_for 600 "the ingest" ingested
kill "$pid"; wait "$pid" 2>/dev/null || true
rm -f "$work/run/s"

echo "== one lap of the hill walk, chestd under callgrind (several minutes)"
python3 scripts/noisy-feed.py hill 1 47.3769 8.5417 > "$work/hill.nmea"
port=$(free_port)
gpsfake -1 -q -P "$port" -c 0.015 "$work/hill.nmea" > /dev/null 2>&1 &
fake=$!; pids+=("$fake")
wait_for 10 "gpsfake's port" bash -c "echo > /dev/tcp/127.0.0.1/$port" 2> /dev/null
# A copy without debug information, which valgrind's reader gives up on; the symbol table names the functions.
# Mangled names, as the sections are named; counting starts once chestd is connected, after its start-up.
objcopy --strip-debug "$bin/chest" "$work/chestd"
CHEST_DIR="$work/chest" CHEST_SOCKET="$work/run/s" valgrind --tool=callgrind --demangle=no --instr-atstart=no \
    --callgrind-out-file="$work/callgrind.out" "$work/chestd" --gpsd "127.0.0.1:$port" 2> "$work/chestd.log" &
pid=$!; pids+=("$pid")
connected() {
    kill -0 "$pid" 2> /dev/null || { tail -5 "$work/chestd.log" >&2; echo "hot-path-order: chestd ended" >&2; exit 1; }
    grep -q "gpsd connected at 127.0.0.1:$port" "$work/chestd.log"
}
wait_for 1200 "chestd connecting to gpsd" connected
callgrind_control -i on "$pid" > /dev/null 2>&1
wait "$fake" || true
sleep 2
kill "$pid"; wait "$pid" 2>/dev/null || true

echo "== Sources/chest/HotPath.order"
# callgrind_annotate lists each function with its own instruction count, largest first: "COUNT (PERCENT)
# FILE:FUNCTION [OBJECT]", a recursive call's level after the name ("'2"). Only the program's own functions have
# sections to order.
{
    echo "# chestd's fix path, hottest first: the functions callgrind saw run over scripts/bench.sh step 7's hill walk (docs/BENCHMARKS.md \"Memory\"); written by scripts/hot-path-order.sh"
    callgrind_annotate --threshold=100 --inclusive=no "$work/callgrind.out" \
        | awk -v program="[$work/chestd]" 'index($0, program) { sub(/ \[[^]]*\]$/, ""); sub(/^.*:/, ""); sub(/'"'"'[0-9]+$/, ""); print ".text." $0 }' \
        | awk '!seen[$0]++'
} > Sources/chest/HotPath.order.new
count=$(grep -c '^\.text\.' Sources/chest/HotPath.order.new || true)
[ "$count" -gt 100 ] || { echo "hot-path-order: only $count functions found; HotPath.order left as it was" >&2; exit 1; }
mv Sources/chest/HotPath.order.new Sources/chest/HotPath.order
echo "   $count functions"
echo "   the release objects must be compiled again for the order to apply: rm .build/release/Chest*.build/*.o"
