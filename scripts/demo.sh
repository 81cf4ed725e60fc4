#!/usr/bin/env bash
# make demo: a quest unlocking along a walk. A private gpsd fed by gpsfake replays the bundled walk
# (demo/walk.txt, turned into NMEA by the project's own chest-walk and dated now), a demo chest holds a
# quest placed along it, and chestd unlocks its pages as the walk passes them; a progress line every few seconds
# says where the walk is and what the next lock waits for. Exits by itself with a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
# The tests pass theirs: a build inside `swift test` would wait for its lock. A build's chestd and chest-walk are
# links to chest that SwiftPM does not make.
if [ -z "${CHEST_BIN:-}" ]; then bin=$(swift build --show-bin-path) && sh scripts/link-programs.sh "$bin"; else bin=$CHEST_BIN; fi
work=$(mktemp -d /tmp/chest-demo-XXXXXX)
gpsfake_pid="" chestd_pid="" watch_pid="" progress_pid=""
cleanup() { end_processes "$progress_pid" "$watch_pid" "$chestd_pid" "$gpsfake_pid"; rm -rf "$work"; }
# chestd's last words, when it ended before the demo did: the log goes with the work directory.
chestd_ended() { echo "demo: chestd ended early; the end of its log:" >&2; tail -n 20 "$work/chestd.log" >&2; }
stopped() { echo "demo: stopped by a signal" >&2; [ -z "$chestd_pid" ] || chestd_ended; }
on_exit cleanup stopped

echo "== The quest: 5 pages along a 90-second walk near Zurich (sealed by the organiser, not by you)"
sender() { XDG_CONFIG_HOME="$work/organiser" "$bin/chest" "$@"; }
sender config name "The Organiser" > /dev/null
id=$(sender compose -o "$work/quest.locked" --title "The hill quest" \
    --page "1. The fountain: you are at the start. Walk up the hill." --lock location=47.376900,8.541700/25m \
    --page "2. Halfway: the path under the trees." --lock location=47.377282,8.542263/20m \
    --page "3. The summit plateau: above 465 m." --lock altitude=465..485 \
    --page "4. A time lock: half a minute or so into the walk, wherever you are." --lock time="$(date -u +%Y-%m-%dT%H:%M:%SZ -d '+50 sec')" \
    --page "5. The old tower, 2 km away: not today." --lock location=47.3950,8.5600/30m,visible)

# The walk starts now, once the pages are sealed (seconds, more on a busy machine): page 4 opens during it.
start=$(date -u +%Y-%m-%dT%H:%M:%SZ -d '+4 sec')
sed "s/^start .*/start $start/" demo/walk.txt > "$work/walk.txt"
"$bin/chest-walk" "$work/walk.txt" > "$work/walk.nmea"

# gpsfake gives up when it reaches gpsd before gpsd listens, and feeds nobody when gpsd missed its device
# (docs/DESIGN.md "gpsfake pitfalls"): each is tried again on a new port, three times at most. Then gpsfake is held
# (SIGSTOP) until chestd has reached gpsd, so the walk's first place is not lost to chestd's reconnection backoff.
for _ in 1 2 3; do
    port=$(free_port)
    gpsfake -1 -p -q -s 38400 -P "$port" -c 0.2 -r '?WATCH={"enable":true,"json":true}' "$work/walk.nmea" \
        > /dev/null 2> "$work/gpsfake.log" &
    gpsfake_pid=$!
    if gpsd_lists_a_device "$port" "$gpsfake_pid"; then kill -STOP "$gpsfake_pid"; break; fi
    end_processes "$gpsfake_pid"
    gpsfake_pid=""
    echo "demo: gpsd did not get gpsfake's walk on port $port; trying again on another port" >&2
done
if [ -z "$gpsfake_pid" ]; then
    echo "demo: gpsfake did not give gpsd the walk in 3 attempts; the end of its log:" >&2
    tail -n 5 "$work/gpsfake.log" >&2
    exit 1
fi
private_chest "$work" "$port"
echo "== gpsfake replays the walk on port $port; chestd watches $CHEST_DIR"
"$bin/chestd" --weather-url http://127.0.0.1:9 2> "$work/chestd.log" &
chestd_pid=$!
for _ in $(seq 1 100); do [ -S "$CHEST_SOCKET" ] && break; sleep 0.1; done
"$bin/chest" watch --events unlocked,ingested,gpsd --no-reconnect 2> /dev/null &
watch_pid=$!
sleep 0.3
"$bin/chest" import "$work/quest.locked" > /dev/null
# The status is read whole before grep looks at it: a pipe into grep -q under pipefail fails when grep stops first.
for _ in $(seq 1 300); do status=$("$bin/chest" status || true); grep -qE "^gpsd +connected" <<< "$status" && break; sleep 0.1; done
kill -CONT "$gpsfake_pid"
# gpsd names its receiver once gpsfake's feed starts: a second or two, longer on a busy machine.
for _ in $(seq 1 120); do status=$("$bin/chest" status || true); grep -qE "^receiver" <<< "$status" && break; sleep 0.5; done
echo "== Where the fixes come from (gpsfake is a pseudo-terminal, so every fix is simulated):"
"$bin/chest" status | grep -E "^(receiver|trust)" || echo "   (gpsd has not named its receiver yet)"
python3 scripts/demo-progress.py "$bin/chest" "$id" 4 &
progress_pid=$!

wait "$gpsfake_pid" || true
gpsfake_pid=""
kill "$progress_pid" && wait "$progress_pid" || true
progress_pid=""
kill "$watch_pid" 2>/dev/null || true
watch_pid=""
kill -0 "$chestd_pid" 2> /dev/null || { chestd_ended; exit 1; }
echo
"$bin/chest" list
