# chest — locked messages that open in the real world.
#   make demo      a quest unlocking along a simulated walk (gpsd fed by gpsfake)
#   make check     the fast loop: the house style, build, then the tests that run in the test process (seconds)
#   make format    apply the house style (.swift-format) to every Swift file
#   make test      build and run every test, including those against a real gpsd (what CI runs)
#   make deb       chest_VERSION_ARCH.deb in .build/deb (docs/PACKAGING.md)
# Both install what is missing from Debian first (apt-get, with sudo when not root).

SWIFT ?= swift
# make's debug builds carry no debug information: writing it was a sixth to a fifth of a fresh clone's build here
# (docs/PACKAGING.md), and a test's failure names its file and line without it. A plain `swift build` (for lldb)
# has it, and rebuilds.
DEBUG_BUILD_FLAGS ?= -debug-info-format none
# Test cases run at once: most wait on gpsd, chestd or mosquitto, so a few per core; more starves gpsfake's feeds.
TEST_WIDTH ?= 6
DEBIAN_PACKAGES := gpsd gpsd-tools gpsd-clients libgps-dev libsodium-dev libxml2-dev libutf8proc-dev libcurl4-openssl-dev pkg-config groff-base python3 bc tmux librsvg2-bin libxml2-utils valgrind \
	mosquitto mosquitto-clients libmosquitto-dev openssl \
	gpsbabel libmicrohttpd-dev chromium libjs-leaflet \
	curl dpkg-dev lintian man-db

.PHONY: all deps build check test deb demo bench bench-build torture fuzz man format clean

include mk/install.mk

all: build

deps:
	@command -v $(SWIFT) >/dev/null || { echo "make: Swift 6 is needed (https://www.swift.org/install/linux/); then run make again" >&2; exit 1; }
	@missing=""; for package in $(DEBIAN_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing from Debian"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# The one program, then chestd, chest-walk and chest-weather beside it as links to it (SwiftPM makes no links).
build: deps
	$(SWIFT) build $(DEBUG_BUILD_FLAGS)
	sh scripts/link-programs.sh "$$($(SWIFT) build --show-bin-path)"

# The test package's path, remade when a file the package is built from or ships changes: the tests' own debug
# build linked again with the Swift runtime in it (scripts/link-static.sh), packaged and linted. PackageTests starts
# on it once it is packed (TEST_DEB_PACKED) while lintian checks it; only a package lintian passed is up to date.
TEST_DEB := .build/deb/test-package
TEST_DEB_PACKED := .build/deb/test-package.packed
LINK_MANIFEST ?= .build/debug.yaml
PACKAGE_INPUTS := Package.swift $(shell find Sources CGPSD packaging mk udev completion docs demo examples scripts/deb.sh scripts/link-static.sh README.md -type f 2>/dev/null)
$(TEST_DEB): $(PACKAGE_INPUTS) | deps
	rm -f $@ $(TEST_DEB_PACKED)
	LINK_MANIFEST=$(LINK_MANIFEST) bash scripts/link-static.sh .build/deb/static
	$(MAKE) deb DEB_COMPRESSION=gzip DEB_COMPRESSION_LEVEL=1 DEB_PROGRAM_DIR=.build/deb/static LINTIAN=no
	ls -t $(CURDIR)/.build/deb/chest_*.deb | head -n 1 > $(TEST_DEB_PACKED)
	lintian --fail-on error --display-info "$$(cat $(TEST_DEB_PACKED))"
	cp $(TEST_DEB_PACKED) $@

# The house style, .swift-format (swift-format's, 4 spaces, 120 columns): `make format` applies it to every Swift file;
# `make check` and `make test` fail on a file it would change or a rule it finds broken, linting only the files
# changed since its last clean run (FORMAT_CHECKED), every file when .swift-format changed. Lines it cannot break
# (a long string or comment) stay as they are.
SWIFT_FILES := Package.swift $(shell find Sources Tests Fuzz -name '*.swift' 2>/dev/null)
FORMAT_CHECKED := .build/format-checked
$(FORMAT_CHECKED): $(SWIFT_FILES) .swift-format
	@echo "swift format lint --strict: $(if $(filter .swift-format,$?),every Swift file,$(words $(filter %.swift,$?)) changed Swift files)"
	@$(SWIFT) format lint --strict --parallel --configuration .swift-format \
		$(if $(filter .swift-format,$?),$(SWIFT_FILES),$(filter %.swift,$?)) || \
		{ echo "make: run \`make format\` to apply the house style (.swift-format)" >&2; exit 1; }
	@mkdir -p $(@D) && touch $@

format:
	$(SWIFT) format format --in-place --parallel --configuration .swift-format $(SWIFT_FILES)

# The fast loop: the suites tagged with none of .process, .gpsd, .mosquitto, .chromium, .package (they are
# cancelled before they start under CHEST_TESTS=in-process; Tests/ChestTestSupport/Tags.swift).
check: deps $(FORMAT_CHECKED)
	$(SWIFT) build --build-tests $(DEBUG_BUILD_FLAGS)
	CHEST_TESTS=in-process $(SWIFT) test --skip-build

# Everything, each part built once: the tests' build (which builds the programs too), then the tests beside the
# package, whose program is that build linked again statically (seconds). The package is
# remade only when what goes into it changed (TEST_DEB); PackageTests waits for it to be packed (CHEST_DEB_STAMP). A build inside
# `swift test` would wait for the build directory's lock, so make builds it; gzip -1 instead of xz saves a minute
# and a half of compressing (docs/PACKAGING.md).
test: deps $(FORMAT_CHECKED)
	$(SWIFT) build --build-tests $(DEBUG_BUILD_FLAGS)
	@mkdir -p .build/deb && cp .build/debug.yaml .build/deb/debug.yaml
	@rm -f $(TEST_DEB_PACKED).failed; { $(MAKE) --no-print-directory $(TEST_DEB) LINK_MANIFEST=.build/deb/debug.yaml \
		> .build/deb/test-package.log 2>&1 || { touch $(TEST_DEB_PACKED).failed; false; }; } & package=$$!; \
	CHEST_DEB_STAMP=$(CURDIR)/$(TEST_DEB_PACKED) SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build; \
	tests=$$?; \
	if ! wait $$package; then tail -n 30 .build/deb/test-package.log >&2; echo "make: the package did not build (.build/deb/test-package.log)" >&2; exit 1; fi; \
	exit $$tests

# A Debian package from a release build with the Swift runtime linked in statically; lintian fails it on an error.
DEB_COMPRESSION ?= xz
DEB_COMPRESSION_LEVEL ?=
deb: deps
	SWIFT=$(SWIFT) DEB_COMPRESSION=$(DEB_COMPRESSION) DEB_COMPRESSION_LEVEL=$(DEB_COMPRESSION_LEVEL) bash scripts/deb.sh

# The command reference of docs/man/chest.1 (between its BEGIN and END GENERATED COMMANDS lines), written by
# `chest --generate-man-page` from the commands' declarations; DeclarationsAgreeTests fails when it is out of date.
man:
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --product chest
	"$$($(SWIFT) build --show-bin-path)/chest" --generate-man-page > .build/chest.1.commands
	awk -v generated=.build/chest.1.commands \
		'/^\.\\" BEGIN GENERATED COMMANDS$$/ { while ((getline line < generated) > 0) print line; skip = 1; next } \
		 /^\.\\" END GENERATED COMMANDS$$/ { skip = 0; next } !skip' docs/man/chest.1 > .build/chest.1.new
	@grep -q 'END GENERATED COMMANDS' .build/chest.1.new || { echo "make: docs/man/chest.1 has lost its GENERATED COMMANDS marker lines" >&2; exit 1; }
	mv .build/chest.1.new docs/man/chest.1

demo: build
	@bash scripts/demo.sh

# The release build the benchmarks measure: the program as `make install` builds it, chestd, chest-walk and
# chest-weather beside it as links, and chest-bench.
bench-build: install-release-build
	$(SWIFT) build -c release $(STATIC) --product chest-bench
	sh scripts/link-programs.sh "$$($(SWIFT) build -c release --show-bin-path)"

bench: deps bench-build
	"$$($(SWIFT) build -c release --show-bin-path)/chest-bench"
	bash scripts/bench.sh
	bash scripts/bench-seal-latency.sh
	python3 scripts/bench-hunt.py
	python3 scripts/bench-board-http.py
	python3 scripts/bench-board-slow.py
	bash scripts/bench-city.sh 5000
	bash scripts/bench-city.sh 5000 2

# Minutes, not part of `make test`: kill -9 cycles, a full file system, descriptor exhaustion, an inotify storm,
# a hostile corpus and a crash at each step (docs/RELIABILITY.md). Root for the tmpfs and prlimit phases.
torture: deps
	$(SWIFT) build -c release
	python3 scripts/torture.py "$$($(SWIFT) build -c release --show-bin-path)"

# Minutes, not part of `make test`: the four libFuzzer harnesses of Fuzz/ (message files, control lines, weather
# replies, gpsd reports) under AddressSanitizer, FUZZ_SECONDS each (docs/RELIABILITY.md "Fuzzing").
FUZZ_SECONDS ?= 300
fuzz: deps
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build
