#!/usr/bin/env bash
# The README's map picture, from a real run: an organiser builds a small Lisbon quest (three visible places named
# by their GPX waypoints, one sealed), a private gpsd fed by gpsfake replays a walk through them into a private
# chestd, and `chest map` draws what that chestd recorded and opened.
#   scripts/map-picture.sh [OUTPUT.png]        (default docs/map.png)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
output=${1:-docs/map.png}
# A build's chestd and chest-walk are links to chest that SwiftPM does not make.
if [ -z "${CHEST_BIN:-}" ]; then bin=$(swift build --show-bin-path) && sh scripts/link-programs.sh "$bin"; else bin=$CHEST_BIN; fi
work=$(mktemp -d /tmp/chest-map-XXXXXX)
gpsfake_pid="" chestd_pid=""
cleanup() { end_processes "$chestd_pid" "$gpsfake_pid"; rm -rf "$work"; }
on_exit cleanup

port=$(free_port)
private_chest "$work" "$port"
mkdir -p "$CHEST_DIR"

cat > "$work/lisbon.gpx" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="chest map picture" xmlns="http://www.topografix.com/GPX/1/1">
  <wpt lat="38.70980" lon="-9.13300"><name>Sé</name></wpt>
  <wpt lat="38.71185" lon="-9.13020"><name>Miradouro de Santa Luzia</name></wpt>
  <wpt lat="38.71390" lon="-9.13340"><name>Castelo</name></wpt>
  <wpt lat="38.71630" lon="-9.13160"><name>Miradouro da Graça</name></wpt>
</gpx>
EOF
cat > "$work/lisbon.quest" <<'EOF'
from: The organiser
search-area: 38.712,-9.132/2km
message: alfama
title: Alfama
page: Start at the cathedral, then climb.
page: The cathedral.
  lock: location=lisbon.gpx#Sé/30m,visible
page: The view over the river.
  lock: location=lisbon.gpx#Miradouro de Santa Luzia/30m,visible
page: Inside the walls: you found it without a map.
  lock: location=lisbon.gpx#Castelo/40m
page: The last view, over the whole city.
  lock: location=lisbon.gpx#Miradouro da Graça/30m,visible
EOF
XDG_CONFIG_HOME="$work/organiser" "$bin/chest" compose --seal-cost interactive --quest "$work/lisbon.quest" \
    -o "$work/alfama.locked" 2>/dev/null >/dev/null
cp "$work/alfama.locked" "$work/chest/"

cat > "$work/walk.txt" <<EOF
start $(date -u +%Y-%m-%dT%H:%M:%SZ -d '+3 sec')
speed 6
38.70760 -9.13650 10 hold 4
38.70900 -9.13420 40
38.70980 -9.13300 60 hold 5
38.71100 -9.13160 75
38.71185 -9.13020 85 hold 5
38.71300 -9.13150 95
38.71390 -9.13340 110 hold 5
38.71520 -9.13300 100
38.71630 -9.13160 105 hold 5
EOF
"$bin/chest-walk" "$work/walk.txt" > "$work/walk.nmea"
TMPDIR="$work" gpsfake -1 -p -q -s 38400 -P "$port" -c 0.05 -r '?WATCH={"enable":true,"json":true}' \
    "$work/walk.nmea" > "$work/gpsfake.log" 2>&1 &
gpsfake_pid=$!
"$bin/chestd" > "$work/chestd.log" 2>&1 &
chestd_pid=$!
wait "$gpsfake_pid" || true
gpsfake_pid=""
# chestd keeps its track as fixes arrive; give the last ones time to be written.
for _ in $(seq 50); do grep -q "gpsd" "$work/chestd.log" && break; sleep 0.1; done
"$bin/chest" map -o "$output"
"$bin/chest" list
echo "wrote $output"
