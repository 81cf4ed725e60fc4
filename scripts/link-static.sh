#!/usr/bin/env bash
# Links the one program of the debug build (`swift build`, `swift build --build-tests`) again, with the Swift runtime linked in
# statically, into DIR/chest: the package `make test` checks is then made of the objects its tests ran, for the cost
# of a link (seconds) instead of a second build of every module (minutes of a 2-core machine; docs/PACKAGING.md).
#
#   scripts/link-static.sh DIR
#
# The link command is SwiftPM's own, read from the build's manifest (.build/debug.yaml), with its rpath and
# debug information dropped and `-static-stdlib` added. The objects were compiled against the shared runtime's
# module files, which name no static library of their own; the static FoundationEssentials needs two of its
# companions named (_FoundationCShims, _FoundationCollections), which a static build's modules would autolink.
#
# LINK_MANIFEST names a copy of the manifest to read instead: `swift test`, even with --skip-build, writes
# .build/debug.yaml afresh when it starts, and `make test` links while the tests run, so a read of the live file can
# meet it half written (no link command found); make copies it before the tests start.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/link-static.sh DIR}
manifest=${LINK_MANIFEST:-.build/debug.yaml}
[ -f "$manifest" ] || { echo "link-static: no $manifest; run swift build first" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out/chest"
mapfile -t command < <(python3 - "$manifest" "$out/chest" <<'PY'
import json, re, sys
manifest, output = sys.argv[1:]
lines = open(manifest).read().split("\n")
# "C.chest-ARCH-VENDOR-linux-gnu-debug.exe": the program, not chest-bench
start = next(i for i, line in enumerate(lines) if re.fullmatch(r'"C\.chest-[^-]+-[^-]+-linux-gnu-debug\.exe":', line.strip()))
arguments = json.loads(next(line for line in lines[start:] if line.strip().startswith("args:")).split("args:", 1)[1])
out, skip = [], False
for argument in arguments:
    if skip:
        out.append(output); skip = False; continue
    if argument == "-o":
        skip = True
    elif argument.startswith("-rpath=") or argument == "-g":
        if out and out[-1] == "-Xlinker":
            out.pop()
        continue
    out.append(argument)
print("\n".join(out + ["-static-stdlib", "-l_FoundationCShims", "-l_FoundationCollections"]))
PY
)
[ "${#command[@]}" -gt 1 ] || { echo "link-static: no link command for chest in $manifest" >&2; exit 1; }
if ! log=$("${command[@]}" 2>&1) || [ ! -x "$out/chest" ]; then
    printf '%s\n' "$log" | tail -n 20 >&2
    echo "link-static: the link failed" >&2
    exit 1
fi
