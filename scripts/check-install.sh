#!/bin/sh
# Installs chest into a throwaway DESTDIR with mk/install.mk, lists every installed file, and fails if
# one is missing or wrong (the one program, chest, and the links chestd, chest-walk and chest-weather to it, each
# run by its name); then uninstalls and fails if anything is left behind.
#   scripts/check-install.sh [PREFIX]      (default /usr/local)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-/usr/local}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

make -s -C "$root" -f mk/install.mk install DESTDIR="$dest" PREFIX="$prefix" >/dev/null

unitdir=$prefix/lib/systemd/user
[ "$prefix" = "$HOME/.local" ] && unitdir=$prefix/share/systemd/user
# The links and where each points (relative, so a staged or moved tree still holds).
links="
$prefix/bin/chestd chest
$prefix/bin/chest-walk chest
$prefix/libexec/chest/chest-weather ../../bin/chest"
expected="
$prefix/bin/chestd
$prefix/libexec/chest/chest-weather
$prefix/bin/chest
$prefix/bin/chest-walk
$prefix/lib/udev/rules.d/60-chest-gps.rules
$unitdir/chestd.service
$prefix/share/man/man1/chest.1
$prefix/share/man/man1/chest-walk.1
$prefix/share/man/man8/chestd.8
$prefix/share/bash-completion/completions/chest
$prefix/share/zsh/vendor-completions/_chest
$prefix/share/fish/vendor_completions.d/chest.fish
$prefix/share/chest/demo/hill.quest
$prefix/share/chest/demo/fountain.txt
$prefix/share/chest/demo/waypoints.gpx
$prefix/share/chest/demo/walk.txt"

echo "installed under $dest:"
(cd "$dest" && find . ! -type d | sed 's|^\.||' | sort | while read -r file; do
    if [ -L "./$file" ]; then
        printf '  %s %s -> %s\n' "$(stat -c %A "./$file")" "$file" "$(readlink "./$file")"
    else
        printf '  %s %s\n' "$(stat -c %A "./$file")" "$file"
    fi
done)

fail=0
problem() { echo "FAIL  $*" >&2; fail=1; }
for file in $expected; do
    [ -f "$dest$file" ] || problem "missing $file"
done
while read -r link target; do
    [ -z "$link" ] || [ "$(readlink "$dest$link")" = "$target" ] || problem "$link is not a link to $target"
done <<EOF
$links
EOF
[ -L "$dest$prefix/bin/chest" ] && problem "$prefix/bin/chest is a link, not the program"
extra=$(cd "$dest" && find . ! -type d | sed 's|^\.||' | sort | grep -vxF "$(printf '%s\n' $expected)" || true)
[ -z "$extra" ] || problem "unexpected files: $extra"

# The pages name the unit and the rules where PREFIX put them, and the demo quest's comments name its files there.
grep -qF "$unitdir/chestd.service" "$dest$prefix/share/man/man8/chestd.8" || problem "chestd.8 does not name $unitdir/chestd.service"
[ "$prefix" = /usr/local ] || ! grep -q /usr/local "$dest$prefix/share/man/man8/chestd.8" || problem "chestd.8 names /usr/local"
grep -qF "# Check it:     chest preview $prefix/share/chest/demo/hill.quest" "$dest$prefix/share/chest/demo/hill.quest" ||
    problem "hill.quest's comments do not name $prefix/share/chest/demo"

for binary in chestd chest chest-walk; do
    [ -x "$dest$prefix/bin/$binary" ] || problem "$prefix/bin/$binary is not executable"
done
# Each name is the program it names.
"$dest$prefix/bin/chest" --version | grep -q '^chest ' || problem "chest --version does not say chest"
"$dest$prefix/bin/chestd" --help | grep -q -- '--gpsd' || problem "chestd --help is not chestd's help"
"$dest$prefix/bin/chest-walk" --help | grep -q '^usage: chest-walk ' || problem "chest-walk --help is not chest-walk's help"
weather=$("$dest$prefix/libexec/chest/chest-weather" < /dev/null 2>&1) && problem "chest-weather without a request succeeded"
echo "$weather" | grep -q '^chest-weather: expected one weather request' || problem "chest-weather without a request: $weather"
grep -qxF "ExecStart=$prefix/bin/chestd" "$dest$unitdir/chestd.service" ||
    problem "chestd.service: ExecStart= is not $prefix/bin/chestd"
for page in man1/chest.1 man1/chest-walk.1 man8/chestd.8; do
    warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$dest$prefix/share/man/$page" 2>&1)
    [ -z "$warnings" ] || problem "$page: $warnings"
done
bash -n "$dest$prefix/share/bash-completion/completions/chest" || problem "completion: bash syntax error"

make -s -C "$root" -f mk/install.mk uninstall DESTDIR="$dest" PREFIX="$prefix"
left=$(find "$dest" ! -type d)
[ -z "$left" ] || problem "uninstall left: $left"

[ $fail = 0 ] && echo "ok: all $(printf '%s\n' $expected | grep -c .) files installed (chestd, chest-walk and" \
    "chest-weather links to chest, each answering to its name), ExecStart rewritten, uninstall clean"
exit $fail
