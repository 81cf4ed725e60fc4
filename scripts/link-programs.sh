#!/bin/sh
# Makes chestd, chest-walk and chest-weather in DIR links to DIR/chest, the one program that answers to each name
# (Sources/chest/main.swift): SwiftPM builds the program but makes no links. A name that is anything else (the
# separate program an older build left there) is replaced. Each link is made at a name of its own and renamed into
# place, so scripts and tests doing this at once never see a missing one.
#   scripts/link-programs.sh DIR        (make build runs it on .build/debug; the scripts on the build they run)
set -eu
dir=${1:?usage: link-programs.sh DIR}
[ -x "$dir/chest" ] || { echo "link-programs.sh: no program $dir/chest (build it first)" >&2; exit 1; }
for name in chestd chest-walk chest-weather; do
    [ "$(readlink "$dir/$name" 2> /dev/null)" = chest ] && continue
    ln -s chest "$dir/.$name.$$"
    mv -f -T "$dir/.$name.$$" "$dir/$name"
done
