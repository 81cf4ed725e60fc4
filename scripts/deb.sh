#!/usr/bin/env bash
# make deb: builds chest_VERSION_ARCH.deb in .build/deb/ with dpkg-deb (docs/PACKAGING.md).
#
# One release build of the one program, chest, with the Swift runtime and Foundation linked in statically (the
# machine installing the package needs no Swift toolchain), staged with mk/install.mk (PREFIX=/usr: chest, and
# chestd, chest-walk and /usr/libexec/chest/chest-weather as relative links to it) plus what a Debian package adds:
# the program stripped, compressed man pages, /usr/share/doc/chest (README, docs, examples, copyright, changelog),
# maintainer scripts and a control file whose Depends: dpkg-shlibdeps computes from what the program really links.
# Then lintian, which fails the build on an error.
#
#   scripts/deb.sh            prints the package's path as its last line
#   SWIFT=PATH                the swift to build with (default: swift)
#   DEB_DIR=DIR               where the package goes (default: .build/deb)
#   DEBFULLNAME, DEBEMAIL     the Maintainer (default: the author of the last commit)
#   DEB_COMPRESSION=TYPE      xz (default: the smallest package, about 100 s of one core) or gzip (make test's
#                             choice with DEB_COMPRESSION_LEVEL=1: 5 s, two thirds larger); lintian refuses zstd
#   DEB_COMPRESSION_LEVEL=N   dpkg-deb -zN (default: dpkg-deb's)
#   LINTIAN=no                skip lintian
#   DEB_CONFIGURATION=debug   package a debug build instead (a debug build takes a third of a release build's time
#                             on a 2-core machine; what is packaged and checked is the same)
#   DEB_PROGRAM_DIR=DIR       package DIR/chest, already linked with the Swift runtime in it, and build nothing (make
#                             test's choice: scripts/link-static.sh links the tests' own debug build so, in seconds)
#
# The build has its own directory, .build/deb-build: objects built to link the runtime statically cannot be linked
# dynamically, so sharing .build/debug or .build/release with `swift build` breaks one or the other.
set -euo pipefail
cd "$(dirname "$0")/.."
root_dir=$(pwd)
swift=${SWIFT:-swift}
out=${DEB_DIR:-$root_dir/.build/deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The version: a tag on HEAD (v0.2.0 or 0.2.0), else 0.MINOR~gitDATE.SHA from ChestVersion and the commit, which sorts
# before the release of 0.MINOR and after every earlier snapshot.
base=$(sed -n 's/.*static let source = "\([0-9]*\.[0-9]*\).*/\1/p' Sources/ChestCore/Format/ChestVersion.swift)
if tag=$(git describe --tags --exact-match 2> /dev/null) && [[ ${tag#v} =~ ^[0-9][A-Za-z0-9.+~]*$ ]]; then
    version=${tag#v}
elif sha=$(git rev-parse --short=7 HEAD 2> /dev/null); then
    version="$base~git$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d).$sha"
else
    version="$base"
fi
# Everything in the package is dated by the commit, so two builds of one commit are the same files.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2> /dev/null || date +%s)}
arch=$(dpkg --print-architecture)
maintainer="${DEBFULLNAME:-$(git log -1 --format=%an 2> /dev/null || echo chest)} <${DEBEMAIL:-$(git log -1 --format=%ae 2> /dev/null || echo "root@$(hostname -f)")}>"
deb="$out/chest_${version}_${arch}.deb"

configuration=${DEB_CONFIGURATION:-release}
if [ -n "${DEB_PROGRAM_DIR:-}" ]; then
    bin=$(cd "$DEB_PROGRAM_DIR" && pwd)
    echo "== chest $version ($arch): the program in $bin, Swift runtime linked statically"
    # Under pipefail a reader that stops at its first match (grep -q, awk's exit, head) makes the writer's SIGPIPE
    # the pipeline's status: every such reader here reads a variable instead of a pipe.
    linked=$(ldd "$bin/chest")
    grep -q libswiftCore <<< "$linked" && { echo "deb: $bin/chest links the Swift runtime dynamically" >&2; exit 1; }
    configuration="prebuilt"
else
    echo "== chest $version ($arch): $configuration build, Swift runtime linked statically"
    # The one product: a plain `swift build` would also build ChestTestSupport, which needs Swift Testing.
    # No debug information: the program is stripped below, and making it is a good part of a debug build's time.
    build=("$swift" build -c "$configuration" --scratch-path "$root_dir/.build/deb-build" --static-swift-stdlib
           --disable-local-rpath -debug-info-format none)
    "${build[@]}" --product chest
    bin=$("${build[@]}" --show-bin-path)
fi
build_seconds=$SECONDS

work=$(mktemp -d /tmp/chest-deb-XXXXXX)
trap 'rm -rf "$work"' EXIT
stage=$work/chest
umask 022

echo "== staging with mk/install.mk (PREFIX=/usr)"
make -s -f mk/install.mk install DESTDIR="$stage" PREFIX=/usr CHEST_BUILT="$bin" SWIFT="$swift" > /dev/null
# The one program; strip on a link would write a copy in its place.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/chest"
# No search path of the program's own: RUNPATH $ORIGIN would load libraries planted beside a copy of it.
dynamic=$(readelf -d -W "$stage/usr/bin/chest")
if grep -q -E '\((RUNPATH|RPATH)\)' <<< "$dynamic"; then
    echo "deb: usr/bin/chest has a RUNPATH or RPATH; build it with --disable-local-rpath" >&2
    exit 1
fi
# The package's version into the program (ChestVersion.slot): over the 64 spaces after the marker, which the program
# holds once, padded to the same length; `chest --version` then says it, and a receipt names it.
marker='@chest-package-version:'
offsets=$(grep -obaF "$marker" "$stage/usr/bin/chest" | cut -d: -f1)
[ "$(wc -w <<< "$offsets")" = 1 ] || { echo "deb: usr/bin/chest holds the version's marker $(wc -w <<< "$offsets") times, not once" >&2; exit 1; }
[ ${#version} -le 64 ] || { echo "deb: the version $version is longer than the program's 64 characters for it" >&2; exit 1; }
printf '%-64s' "$version" | dd of="$stage/usr/bin/chest" bs=1 seek=$((offsets + ${#marker})) conv=notrunc status=none
said=$("$stage/usr/bin/chest" --version)
[ "$said" = "chest $version" ] || { echo "deb: the packaged program says \"$said\", not \"chest $version\"" >&2; exit 1; }
gzip -9n "$stage"/usr/share/man/man*/*

doc=$stage/usr/share/doc/chest
install -d "$doc/docs" "$doc/examples/mosquitto/mosquitto.service.d" "$doc/examples/game"
install -m 0644 README.md "$doc/"
install -m 0644 docs/*.md docs/*.png docs/*.xsd "$doc/docs/"
# The demo quest and walk are /usr/share/chest/demo (install.mk), which `chest demo` reads: a program must not need
# /usr/share/doc (Debian policy 12.3), so the examples link to them.
ln -s ../../../chest/demo "$doc/examples/quest"
install -m 0644 examples/mosquitto/*.conf examples/mosquitto/*.acl "$doc/examples/mosquitto/"
install -m 0644 examples/mosquitto/mosquitto.service.d/* "$doc/examples/mosquitto/mosquitto.service.d/"
install -m 0644 examples/game/* "$doc/examples/game/"
# Comments name the files where the package has them: the game's quest, and the docs the quests cite.
sed -i -e '/^#/s|examples/game/|/usr/share/doc/chest/examples/game/|g' "$doc/examples/game/bern.quest"
sed -i -e '/^#/s|(docs/|(/usr/share/doc/chest/docs/|g' "$doc/examples/game/bern.quest" "$stage/usr/share/chest/demo/hill.quest"
install -m 0644 packaging/deb/copyright "$doc/copyright"
# A native package (no Debian revision): its one changelog is changelog.gz (Debian policy 12.7).
{
    echo "chest ($version) unstable; urgency=medium"
    echo
    if [ -n "${sha:-}" ]; then
        echo "  * Built by make deb from commit $sha:"
        git log -1 --format=%s | fold -s -w 70 | sed 's/^/    /; s/ *$//'
    else
        echo "  * Built by make deb."
    fi
    echo "  * The project's history: git log in the chest repository."
    echo
    echo " -- $maintainer  $(date -R -u -d "@$SOURCE_DATE_EPOCH")"
} > "$doc/changelog"
gzip -9n "$doc/changelog"

install -d "$stage/DEBIAN"
# No postrm: dpkg keeps a package with one in state config-files ("rc") after `apt remove`, for its postrm to be run
# at purge, though it has nothing to purge; udevd itself notices rules that went (docs/PACKAGING.md).
install -m 0755 packaging/deb/postinst "$stage/DEBIAN/"

# Depends: from the libraries the program links, through the shlibs and symbols files of the installed packages.
install -d "$work/source/debian"
printf 'Source: chest\n\nPackage: chest\nArchitecture: any\n' > "$work/source/debian/control"
depends=$(cd "$work/source" && dpkg-shlibdeps -O --warnings=1 "$stage/usr/bin/chest" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# The libraries the program opens at their first use (Sources/CLazyLibraries, each `.soname = "…"` there) are not
# in its ELF header, so dpkg-shlibdeps cannot see them: the shlibs file of the package that installs each gives
# the dependency as dpkg-shlibdeps would have.
cache=$(ldconfig -p)
for soname in $(sed -n 's/.*\.soname = "\([^"]*\)".*/\1/p' Sources/CLazyLibraries/*.c | sort); do
    library=$(awk -v soname="$soname" '$1 == soname { print $NF; exit }' <<< "$cache")
    # dpkg knows the library's file by its real path (/usr/lib/…; ldconfig may name it by /lib/…).
    package=$(dpkg-query -S "$(realpath "${library:-/nonexistent}")" 2>/dev/null | cut -d: -f1 || true)
    shlibs=/var/lib/dpkg/info/$package:$arch.shlibs
    [ -f "$shlibs" ] || shlibs=/var/lib/dpkg/info/$package.shlibs
    dependency=$(awk -v name="${soname%%.so.*}" -v major="${soname##*.so.}" \
        '$1 == name && $2 == major { $1 = $2 = ""; sub(/^ +/, ""); print; exit }' "$shlibs" 2>/dev/null || true)
    [ -n "$dependency" ] || { echo "deb: no package with a shlibs entry installs $soname" >&2; exit 1; }
    depends="$depends, $dependency"
done

(cd "$stage" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$installed_size|" -e "s|@DEPENDS@|$depends|" packaging/deb/control.in > "$stage/DEBIAN/control"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

rm -f "$out"/chest_*.deb
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-xz}" ${DEB_COMPRESSION_LEVEL:+-z"$DEB_COMPRESSION_LEVEL"} \
    --build "$stage" "$deb" > /dev/null
echo "== $(basename "$deb"): $(du -k "$deb" | cut -f1) KiB"
echo "Depends: $depends"
package_seconds=$((SECONDS - build_seconds))

if [ "${LINTIAN:-yes}" != no ]; then
    if command -v lintian > /dev/null; then
        echo "== lintian"
        lintian --fail-on error --display-info "$deb" || { echo "deb: lintian reports errors" >&2; exit 1; }
    else
        echo "deb: lintian is not installed (make deps installs it); not checked" >&2
    fi
fi
echo "== times: $configuration program ${build_seconds} s, staging and dpkg-deb ${package_seconds} s, lintian $((SECONDS - build_seconds - package_seconds)) s"
echo "$deb"
