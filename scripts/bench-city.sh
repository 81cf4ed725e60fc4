#!/bin/bash
# A hunt for a city on the real wire (docs/BENCHMARKS.md "A city"): TEAMS teams, each its own MQTT client over TLS
# with its own password, on a real Mosquitto running examples/mosquitto (hunt.conf, hunt.acl, the systemd drop-in's
# descriptor limit), with EDGES edge brokers bridged to it by bridge.conf; the organiser's `chest board --json
# --http` and one browser event stream; 5,000 slow connections against the web board meanwhile.
#
# Usage: scripts/bench-city.sh TEAMS [EDGES]   (CHEST_CITY_PERSISTENCE=old measures hunt.conf's former
# autosave_on_changes true / autosave_interval 1; CHEST_BENCH_KEEP=1 keeps the temporary directory)
# Prints, last: city: teams N, edges E, receipts sent S, credited C, p50 X ms, p95 Y ms, board RSS Z MB, broker RSS W MB
# and exits non-zero when a receipt was not credited.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]] || { [ $# -ge 2 ] && ! [[ $2 =~ ^[0-9]+$ ]]; }; then
    echo "usage: scripts/bench-city.sh TEAMS [EDGES]" >&2
    exit 64
fi
swift build -c release --product chest >&2
swift build -c release --product chest-bench >&2
exec python3 scripts/bench-city.py "$@"
