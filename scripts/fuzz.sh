#!/usr/bin/env bash
# Builds the three fuzzers of Fuzz/ (with ChestCore's sources, and ChestWeather's for the weather one, under
# libFuzzer and AddressSanitizer, outside the package) and runs each for SECONDS (default 300) from a seed corpus
# of small valid examples: the message decoder, the control socket's request/reply/event lines, the weather
# providers' reply decoders. `scripts/fuzz.sh SECONDS NAME…` runs only the named ones (message, control, weather).
# Results: docs/RELIABILITY.md "Fuzzing".
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(message control weather)
out=.build/fuzz
mkdir -p "$out/corpus-message" "$out/corpus-control" "$out/corpus-weather"
build() { # NAME SOURCES…: one module named ChestCore (ChestWeather's `import ChestCore` is then ignored)
    local name="$1"; shift
    swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name ChestCore "$@" -o "$out/$name" 2>&1 \
        | grep -v -e "Cannot export local symbol" -e "ignoring import" -e "^import ChestCore" -e "^ *\^" || true
}
run() { # NAME CORPUS
    "$out/$1" -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 "$out/$2"
}
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
# Seeds: control requests of every operation, replies and events as chestd writes them.
cd "$out/corpus-control"
i=0
for line in '{"op":"status"}' '{"op":"list"}' '{"op":"read","id":"0123abcd","page":1}' '{"op":"pin","id":"0123","pin":"1234"}' \
    '{"op":"save","id":"0123","saved":true}' '{"op":"import","path":"/tmp/a.locked"}' '{"op":"watch"}' '{"op":"reload"}' \
    '{"ok":true,"result":{}}' '{"ok":false,"error":"no message 0123"}' '{"ok":true,"result":{"id":"0123abcd0123abcd0123abcd0123abcd","title":"t"}}' \
    '{"ok":true,"result":[]}' '{"ok":true,"result":{"latitude":48.85,"longitude":2.29,"time":"2026-01-01T00:00:00Z"}}'; do
    printf '%s' "$line" > "seed$i.json"; i=$((i + 1))
done
cd - > /dev/null
# Seeds: 200 bodies from both providers, unix and local times, a float code, an error body.
cd "$out/corpus-weather"
printf '%s' '{"latitude":48.86,"longitude":2.29,"utc_offset_seconds":0,"current_units":{"time":"unixtime","weather_code":"wmo code","temperature_2m":"°C"},"current":{"time":1800000000,"interval":900,"weather_code":61,"temperature_2m":4.5}}' > open-meteo-unix.json
printf '%s' '{"utc_offset_seconds":3600,"current":{"time":"2027-01-15T12:00","weather_code":3.0,"temperature_2m":-2}}' > open-meteo-local.json
printf '%s' '{"coord":{"lon":2.29,"lat":48.86},"weather":[{"id":500,"main":"Rain","description":"light rain","icon":"10d"},{"id":701}],"main":{"temp":4.5,"feels_like":1.2},"dt":1800000000,"cod":200}' > openweathermap.json
printf '%s' '{"cod":"401","message":"Invalid API key"}' > openweathermap-error.json
cd - > /dev/null
# Inputs that once crashed a fuzzer, kept so every run tries them again.
cp Fuzz/regressions/weather-*.json "$out/corpus-weather/"
for target in "${targets[@]}"; do
    case "$target" in
    message) build message-decoder Sources/ChestCore/*.swift Fuzz/MessageDecoderFuzzer.swift
             run message-decoder corpus-message ;;
    control) build control-protocol Sources/ChestCore/*.swift Fuzz/ControlProtocolFuzzer.swift
             run control-protocol corpus-control ;;
    weather) build weather-decoder Sources/ChestCore/*.swift Sources/ChestWeather/*.swift Fuzz/WeatherDecoderFuzzer.swift
             run weather-decoder corpus-weather ;;
    *) echo "fuzz.sh: no fuzzer named $target (message, control, weather)" >&2; exit 64 ;;
    esac
done
