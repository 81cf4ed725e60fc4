#!/usr/bin/env bash
# Builds the message-decoder fuzzer (Fuzz/, with ChestCore's sources, under libFuzzer and AddressSanitizer) and
# runs it for SECONDS (default 300) from a seed corpus of the repository's example messages.
# Results: docs/RELIABILITY.md "Fuzzing".
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
out=.build/fuzz
mkdir -p "$out/corpus-message"
# Seeds: sealed messages with every lock kind, made as scripts/torture.py makes them.
python3 - "$out/corpus-message" <<'PY'
import sys; sys.path.insert(0, "scripts"); import torture
locks = [[{"type": "location", "latitude": 48.85, "longitude": 2.29, "radius": 30}],
         [{"type": "pin", "argon2id": "$argon2id$v=19$m=65536,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g"}],
         [{"type": "weather", "condition": "rainy"}, {"type": "temperature", "min": -5, "max": 3}],
         [{"type": "altitude", "min": 100, "max": 200}, {"type": "time", "at": "2030-01-01T00:00:00Z"}]]
for index, lock in enumerate(locks):
    open(f"{sys.argv[1]}/seed{index}.locked", "wb").write(torture.message(f"seed {index}", lock)[1])
PY
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name ChestCore \
    Sources/ChestCore/*.swift Fuzz/MessageDecoderFuzzer.swift -o "$out/message-decoder" 2>&1 | grep -v "Cannot export local symbol" || true
"$out/message-decoder" -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 "$out/corpus-message"
