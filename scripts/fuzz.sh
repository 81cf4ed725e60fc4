#!/usr/bin/env bash
# Builds the four fuzzers of Fuzz/ (with ChestCore's sources, plus ChestWeather's for the weather one and
# ChestGPS's conversions and libgps for the gps one, under libFuzzer and AddressSanitizer, outside the package)
# and runs each for SECONDS (default 300) from a seed corpus of small valid examples: the message decoder (formats 1
# to 5), the control socket's request/reply/event lines, the weather providers' reply decoders, gpsd's reports.
# `scripts/fuzz.sh SECONDS NAME…` runs only the named ones (message, control, weather, gps); FUZZ_RUNS=N also
# stops each after N inputs, whichever comes first. The composed seeds are written by the release `chest compose`
# (CHEST=path, or .build/release/chest, built if missing). `scripts/fuzz.sh typecheck` only checks that the four
# still compile. Results: docs/RELIABILITY.md "Fuzzing".
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz
mkdir -p "$out"
# The harnesses' sources: ChestCore's, in its folders (docs/ARCHITECTURE.md); ChestWeather's for the weather one;
# for the gps one ChestGPS's conversions without GPSReader (which needs ChestIO) and the module map of CGPSD.
mapfile -t core < <(find Sources/ChestCore -name '*.swift' | sort)
core+=(-Xcc -fmodule-map-file=Sources/CUTF8Proc/module.modulemap -lutf8proc)
# ChestWeather opens libcurl through ChestIO's OnDemandLibrary and CLazyLibraries (docs/PACKAGING.md "Libraries loaded
# on demand"): that one file of ChestIO joins the module, and CLazyLibraries' C is compiled apart (for a fuzzer only).
sed '/^import ChestIO$/d' Sources/ChestWeather/WeatherHTTPClient.swift > "$out/WeatherHTTPClient.swift"
printf 'module CLazyLibraries {\n    header "%s"\n    export *\n}\n' "$PWD/Sources/CLazyLibraries/include/CLazyLibraries.h" \
    > "$out/CLazyLibraries.modulemap"
# WeatherHelper is chest-weather's own input and output (through ChestIO), which no fuzzer reads.
mapfile -t weatherSources < <(ls Sources/ChestWeather/*.swift | grep -v -e '/WeatherHTTPClient.swift$' -e '/WeatherHelper.swift$')
weather=("${weatherSources[@]}" "$out/WeatherHTTPClient.swift" Sources/ChestIO/OnDemandLibrary.swift
    -Xcc -fmodule-map-file=Sources/CCurl/module.modulemap -Xcc -fmodule-map-file="$out/CLazyLibraries.modulemap")
lazyObjects() { # CLazyLibraries' objects, for the weather fuzzer's link
    mkdir -p "$out/lazy"
    for source in Sources/CLazyLibraries/*.c; do
        clang -c -O1 -fvisibility=hidden -I Sources/CLazyLibraries/include -I/usr/include/libxml2 "$source" \
            -o "$out/lazy/$(basename "$source" .c).o"
    done
    ls "$out"/lazy/*.o
}
sed '/^import ChestIO$/d' Sources/ChestGPS/Fix+libgps.swift > "$out/Fix+libgps.swift"
gps=("$out/Fix+libgps.swift" Sources/ChestGPS/ReceiverSource.swift -Xcc -fmodule-map-file=CGPSD/module.modulemap -I CGPSD)
quiet() { grep -v -e "Cannot export local symbol" -e "ignoring import" -e "^ *[0-9]* | " -e "^ *\^" || true; }
# `fuzz.sh typecheck`: whether the four harnesses still compile against the sources, in half a minute and without
# running them (FuzzHarnessTests in make test), so that a change of the sources cannot leave them behind unseen.
if [ "${1:-}" = typecheck ]; then
    swiftc -typecheck -parse-as-library -package-name chest -module-name ChestCore "${core[@]}" "${weather[@]}" "${gps[@]}" \
        Fuzz/*.swift 2>&1 | quiet
    exit 0
fi
seconds="${1:-300}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(message control weather gps)
mkdir -p "$out/corpus-message" "$out/corpus-control" "$out/corpus-weather" "$out/corpus-gps"
build() { # NAME SOURCES… [FLAGS]: one module named ChestCore (the other modules' `import ChestCore` is then ignored);
    # a harness that does not compile stops the script
    local name="$1"; shift
    swiftc -sanitize=fuzzer,address -parse-as-library -O -package-name chest -module-name ChestCore "$@" -o "$out/$name" 2>&1 | quiet
}
run() { # NAME CORPUS: an input that runs 10 s is reported as a hang (libFuzzer's default is 20 minutes, and
    # -max_total_time is only checked between inputs, so a hang would otherwise look like a silent stop)
    "$out/$1" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -timeout=10 -max_len=65536 \
        -print_final_stats=1 "$out/$2"
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
# Seeds: sealed messages as `chest compose` writes them by default (format 3, or 5 with a PIN or an answer) with
# every lock kind, places in the clear and sealed, the hardware requirement, a chain, hints, a question; one in
# format 2 and one in format 1, which readers still open.
if [[ " ${targets[*]} " == *" message "* ]]; then
    chest="${CHEST:-.build/release/chest}"
    [ -x "$chest" ] || swift build -c release --product chest
    home=$(mktemp -d)
    compose() { HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" "$chest" compose --force --from Fuzz "$@" \
        > /dev/null 2>&1 || { echo "fuzz.sh: chest compose $* failed" >&2; return 1; }; }
    compose -o "$out/corpus-message/compose-location.locked" --title "location" --page "one" --lock location=48.85837,2.29448/30m
    compose -o "$out/corpus-message/compose-visible.locked" --title "visible" --require hardware --page "one" \
        --lock location=48.85837,2.29448/30m,visible --lock altitude=100..200 --or --lock pin=4821 --page "two"
    compose -o "$out/corpus-message/compose-mixed.locked" --title "mixed" --page "one" --lock pin=123456 \
        --page "two" --lock time=2030-01-01T00:00:00Z,gps --lock weather=rainy --or --lock temperature=-5..3 \
        --page "three" --lock after=5382c300f0947445d7bef0ce07ceb65d#1 --page "four" --page "five" --lock time=2031-01-01T00:00:00Z
    compose -o "$out/corpus-message/compose-game.locked" --title "game" --page "one" --hint "look up" \
        --hint "left of the door" --hint-after 10m --page "two" --question "Which tower?" --lock "answer=Zytglogge|Zeitglockenturm"
    compose -o "$out/corpus-message/format2-location.locked" --format 2 --title "f2" --page "one" --lock location=48.85837,2.29448/30m \
        --lock pin=4821
    compose -o "$out/corpus-message/format1-compose.locked" --format 1 --title "f1" --page "one" --lock pin=4821 \
        --page "two" --lock location=48.85837,2.29448/1km
    rm -rf "$home"
fi
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
# Seeds: gpsd's reports as chestd's reader receives them after ?WATCH, one file a session: the greeting, a 3D
# fix with its sky, a receiver without fix, a device going away, and what gpsd sends less often.
cd "$out/corpus-gps"
version='{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}'
devices='{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","driver":"u-blox","subtype":"SW 2.01 (75331),HW 00080000","activated":"2026-06-01T09:00:00.000Z","flags":1,"native":1,"bps":9600,"parity":"N","stopbits":1,"cycle":1.00,"mincycle":0.25}]}'
watch='{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}'
device='{"class":"DEVICE","path":"/dev/ttyACM0","driver":"NMEA0183","activated":"2026-06-01T09:00:01.000Z","flags":1,"native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}'
sky='{"class":"SKY","device":"/dev/ttyACM0","time":"2026-06-01T09:00:02.000Z","xdop":0.62,"ydop":0.85,"vdop":1.20,"tdop":0.90,"hdop":0.90,"gdop":1.80,"pdop":1.50,"satellites":[{"PRN":5,"el":40.0,"az":120.0,"ss":38.0,"used":true,"gnssid":0,"svid":5},{"PRN":70,"el":20.0,"az":300.0,"ss":30.0,"used":true,"gnssid":6,"svid":6,"sigid":0,"freqid":-2,"health":1},{"PRN":12,"el":5.0,"az":10.0,"ss":0.0,"used":false,"gnssid":0,"svid":12}]}'
tpv='{"class":"TPV","device":"/dev/ttyACM0","status":2,"mode":3,"time":"2026-06-01T09:00:02.000Z","leapseconds":18,"ept":0.005,"lat":48.858370,"lon":2.294481,"altHAE":100.200,"altMSL":53.100,"alt":53.100,"epx":3.100,"epy":4.200,"epv":5.500,"track":12.3000,"magtrack":13.1000,"magvar":0.8,"speed":0.100,"climb":0.000,"eps":0.20,"epc":0.50,"geoidSep":47.100,"eph":6.100,"sep":8.200}'
printf '%s\n' "$version" "$devices" "$watch" "$sky" "$tpv" > session.json
printf '%s\n' "$device" '{"class":"TPV","device":"/dev/ttyACM0","mode":1}' '{"class":"SKY","device":"/dev/ttyACM0","satellites":[]}' \
    '{"class":"TPV","device":"/dev/ttyACM0","mode":2,"time":"2026-06-01T09:00:03.000Z","lat":-33.8568,"lon":151.2153,"eph":40.0}' > nofix.json
printf '%s\n' "$tpv" '{"class":"DEVICE","path":"/dev/ttyACM0","activated":0}' '{"class":"ERROR","message":"unrecognized request"}' > gone.json
printf '%s\n' '{"class":"TPV","device":"/dev/pts/3","status":8,"mode":3,"time":"2031-12-31T23:59:59.999Z","lat":89.9999,"lon":-179.9999,"altHAE":8848.0,"altMSL":8800.0,"epv":0.1,"eph":0.1}' \
    '{"class":"GST","device":"/dev/ttyACM0","time":"2026-06-01T09:00:02.000Z","rms":1.2,"major":2.0,"minor":1.0,"orient":12.0,"lat":1.0,"lon":1.0,"alt":2.0}' \
    '{"class":"TOFF","device":"/dev/ttyACM0","real_sec":1780304402,"real_nsec":0,"clock_sec":1780304402,"clock_nsec":1000,"precision":-1}' \
    '{"class":"POLL","time":"2026-06-01T09:00:02.000Z","active":1,"tpv":[{"class":"TPV","mode":3,"lat":1.0,"lon":2.0}],"sky":[]}' > rare.json
cd - > /dev/null
# Inputs that once crashed or hung a fuzzer, kept so every run tries them again.
cp Fuzz/regressions/weather-*.json "$out/corpus-weather/"
cp Fuzz/regressions/gps-*.json "$out/corpus-gps/"
for target in "${targets[@]}"; do
    case "$target" in
    message) build message-decoder "${core[@]}" Fuzz/MessageDecoderFuzzer.swift
             run message-decoder corpus-message ;;
    control) build control-protocol "${core[@]}" Fuzz/ControlProtocolFuzzer.swift
             run control-protocol corpus-control ;;
    weather) mapfile -t objects < <(lazyObjects)
             build weather-decoder "${core[@]}" "${weather[@]}" "${objects[@]}" Fuzz/WeatherDecoderFuzzer.swift
             run weather-decoder corpus-weather ;;
    gps)     build gps-report "${core[@]}" "${gps[@]}" Fuzz/GPSReportFuzzer.swift -lgps
             run gps-report corpus-gps ;;
    *) echo "fuzz.sh: no fuzzer named $target (message, control, weather, gps)" >&2; exit 64 ;;
    esac
done
