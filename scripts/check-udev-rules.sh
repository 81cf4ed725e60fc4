#!/bin/sh
# Runs udev/60-chest-gps.rules through the real udev rule engine (`udevadm test`), as root, inside a
# private mount namespace with throwaway /dev, /run and /etc/udev/rules.d, so nothing on the machine
# changes: `udevadm test` really creates links, db entries and permissions.
#
# No USB GPS is needed: a copy of the rules also treats the virtual console tty1 as a GPS, and the
# script checks the resulting group, mode, link, tags and systemd wants.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "check-udev-rules: needs root (unshare -m)" >&2; exit 1; }
[ -e /sys/class/tty/tty1 ] || { echo "check-udev-rules: no /sys/class/tty/tty1 to test with" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -e 's/KERNEL!="ttyACM\[0-9\]\*|ttyUSB\[0-9\]\*"/KERNEL!="ttyACM[0-9]*|ttyUSB[0-9]*|tty1"/' \
    -e 's/^# ---- What happens to a GPS tty\./KERNEL=="tty1", ENV{CHEST_GPS}="1"/' \
    "$root/udev/60-chest-gps.rules" > "$work/60-chest-gps.rules"

unshare -m sh -eu -c '
    mount -t tmpfs none /etc/udev/rules.d
    mount -t tmpfs none /run
    mount -t tmpfs none /dev
    mknod -m 666 /dev/null c 1 3
    mknod -m 600 /dev/tty1 c 4 1
    cp "$1/60-chest-gps.rules" /etc/udev/rules.d/
    udevadm test --action=add /sys/class/tty/tty1 > "$1/out" 2>&1
    stat -c "%G %a" /dev/tty1 > "$1/node"
    readlink /dev/chest-gps > "$1/link"
' sh "$work"

fail=0
expect() {
    if grep -qxF "$1" "$2"; then echo "ok    $1"; else echo "FAIL  $1" >&2; fail=1; fi
}
if grep -iE 'invalid|failed to parse|unknown key|ignoring' "$work/out" | grep -F 60-chest-gps; then
    echo "FAIL  udev reported problems with the rules" >&2
    fail=1
fi
expect "dialout 660" "$work/node"
expect "tty1" "$work/link"
expect "TAGS=:systemd:" "$work/out"
expect "SYSTEMD_WANTS=gpsdctl@tty1.service" "$work/out"
expect "SYSTEMD_USER_WANTS=chestd.service" "$work/out"
exit $fail
