#!/usr/bin/env bash
# The format 2 measurements of docs/SECURITY.md and docs/BENCHMARKS.md: seconds per Argon2id guess at each
# `--seal-cost` level on this machine, the brute-force table derived from them, a fix against 10,000 sealed
# location locks, the sealing work of a 5 km walk and the time from the third confirming fix to an open page.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product chest-bench > /dev/null
"$(swift build -c release --show-bin-path)/chest-bench" seal
