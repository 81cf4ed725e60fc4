#!/usr/bin/env bash
# chestd's memory with messages that carry attachments (docs/FORMAT.md "Attachments", docs/BENCHMARKS.md): chestd
# checks each file whole as it arrives, then keeps none of its attachments' bytes.
#   N messages (default 20), each with 8 MiB of files on a page locked by time, copied into a running chestd's chest:
#   chestd's VmRSS and VmHWM (its peak) after their ingest and after a restart, against the same N messages without
#   attachments. CHEST_BIN=DIR measures the binaries in DIR instead of the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
count=${1:-20}
if [ -z "${CHEST_BIN:-}" ]; then
    make -s bench-build > /dev/null
    bin=$(swift build -c release --show-bin-path)
else
    bin=$CHEST_BIN
fi
work=$(mktemp -d /tmp/chest-bench-attach-XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
on_exit cleanup
export XDG_CONFIG_HOME="$work/config" TZ=UTC
wait_socket() { for _ in $(seq 1 200); do [ -S "$1" ] && return 0; sleep 0.05; done; echo "no socket $1" >&2; exit 1; }
status() { awk -v key="$1:" '$1 == key { printf "%.1f", $2 / 1024 }' "/proc/$pid/status"; }

head -c $((8 << 20)) /dev/urandom > "$work/files.bin"
mkdir -p "$work/with" "$work/without"
for i in $(seq 1 "$count"); do
    "$bin/chest" compose -o "$work/with/m$i.locked" --title "m$i" --page "page $i" --attach "$work/files.bin" \
        --lock time=2099-01-01T00:00:00Z > /dev/null 2>&1
    "$bin/chest" compose -o "$work/without/m$i.locked" --title "m$i" --page "page $i" \
        --lock time=2099-01-01T00:00:00Z > /dev/null 2>&1
done
echo "$count messages of $(du -sh "$work/with" | cut -f1) with attachments, $(du -sh "$work/without" | cut -f1) without"

start() {
    rm -f "$work/run/s"; mkdir -p "$work/run"; chmod 700 "$work/run"
    CHEST_DIR="$work/chest-$1" CHEST_SOCKET="$work/run/s" CHEST_GPSD=127.0.0.1:9 "$bin/chestd" 2>> "$work/chestd.log" &
    pid=$!; wait_socket "$work/run/s"
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }
for kind in without with; do
    start "$kind"
    cp "$work/$kind"/*.locked "$work/chest-$kind/"
    while [ "$(ls "$work/chest-$kind/messages" | grep -c '\.locked$')" -lt "$count" ]; do sleep 0.05; done
    sleep 1
    printf "%-8s after the ingest:  VmRSS %s MB, peak (VmHWM) %s MB\n" "$kind" "$(status VmRSS)" "$(status VmHWM)"
    stop
    start "$kind"
    sleep 2
    printf "%-8s after a restart:   VmRSS %s MB, peak (VmHWM) %s MB\n" "$kind" "$(status VmRSS)" "$(status VmHWM)"
    stop
done
