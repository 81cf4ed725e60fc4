#!/bin/sh
# Makes docs/board.png, the picture of the board in a browser in the README, from a real run: a mosquitto on
# loopback, a hunt of six teams sharing positions published by `chest-bench hunt publish` (signed, proven receipts),
# one junk message refused, `chest board --http --quiet`, and headless Chromium at 1920x1080.
# Usage: scripts/board-screenshot.sh [OUTPUT.png]   (release binaries: swift build -c release)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$root" && swift build -c release --show-bin-path)
output=${1:-$root/docs/board.png}
work=$(mktemp -d /tmp/chest-board-shot-XXXXXX)
pids=""
trap 'for pid in $pids; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT
. "$root/scripts/lib.sh"
mqtt=$(free_port)
http=$(free_port)
{ [ "$(id -u)" = 0 ] && echo "user root"; echo "listener $mqtt 127.0.0.1"; echo "allow_anonymous true"; } > "$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" >/dev/null 2>&1 & pids="$pids $!"
until mosquitto_pub -h 127.0.0.1 -p "$mqtt" -t probe -m x 2>/dev/null; do sleep 0.1; done
# Six teams, eight pages each, the last 17 receipts held back: the teams stand at different counts.
mkfifo "$work/hold"
"$bin/chest-bench" hunt publish "127.0.0.1:$mqtt" "$work/Lakeside.hunt" --teams 6 --pages 8 --share-positions \
    --hold 17 --name "Lakeside hunt" < "$work/hold" > "$work/publish.out" & pids="$pids $!"
exec 3> "$work/hold"
until grep -q published "$work/publish.out"; do sleep 0.1; done
hunt_id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$work/Lakeside.hunt")
mosquitto_pub -h 127.0.0.1 -p "$mqtt" -r -t "chest/$hunt_id/orange/receipt/99" -m '{"not": "a receipt"}'
HOME=$work XDG_CONFIG_HOME=$work/config "$bin/chest" board "$work/Lakeside.hunt" --http "127.0.0.1:$http" --quiet \
    2> "$work/board.err" & pids="$pids $!"
waited=0
until curl -sf "http://127.0.0.1:$http/board.json" | grep -q '"refused":\[{'; do
    waited=$((waited + 1))
    [ "$waited" -lt 150 ] || { echo "board-screenshot: the board did not show the refusal (see $work/board.err)" >&2; exit 1; }
    sleep 0.2
done
# Three more pages come in while the board runs, so the latest events have a moment between them.
for _ in 1 2 3; do echo next >&3; sleep 1; done
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" --window-size=1920,1080 \
    --screenshot="$output" "http://127.0.0.1:$http/" 2>/dev/null
echo "board-screenshot: wrote $output"
