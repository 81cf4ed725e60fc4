# chest — locked messages that open in the real world.
#   make demo      a quest unlocking along a simulated walk (gpsd fed by gpsfake)
#   make test      build and run every test, including those against a real gpsd
#   make deb       chest_VERSION_ARCH.deb in .build/deb (docs/PACKAGING.md)
# Both install what is missing from Debian first (apt-get, with sudo when not root).

SWIFT ?= swift
# Test cases run at once: most wait on gpsd, chestd or mosquitto, so a few per core; more starves gpsfake's feeds.
TEST_WIDTH ?= 6
DEBIAN_PACKAGES := gpsd gpsd-tools gpsd-clients libgps-dev libsodium-dev pkg-config groff-base python3 bc tmux librsvg2-bin libxml2-utils \
	mosquitto mosquitto-clients libmosquitto-dev openssl \
	gpsbabel libmicrohttpd-dev chromium \
	libcurl4-openssl-dev dpkg-dev lintian man-db

.PHONY: all deps build test deb demo bench torture fuzz clean

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

build: deps
	$(SWIFT) build

# The package is built first, by make and not by the tests: a build inside `swift test` would wait for the build
# directory's lock. PackageTests inspects and installs the .deb named by CHEST_DEB (docs/PACKAGING.md); gzip -1
# instead of xz saves a minute and a half of compressing.
test: build
	$(MAKE) deb DEB_COMPRESSION=gzip DEB_COMPRESSION_LEVEL=1 DEB_CONFIGURATION=debug
	$(SWIFT) build --build-tests
	CHEST_DEB="$$(ls -t $(CURDIR)/.build/deb/chest_*.deb | head -n 1)" SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build

# A Debian package from a release build with the Swift runtime linked in statically; lintian fails it on an error.
DEB_COMPRESSION ?= xz
DEB_COMPRESSION_LEVEL ?=
deb: deps
	SWIFT=$(SWIFT) DEB_COMPRESSION=$(DEB_COMPRESSION) DEB_COMPRESSION_LEVEL=$(DEB_COMPRESSION_LEVEL) bash scripts/deb.sh

demo: build
	@bash scripts/demo.sh

bench: deps install-release-build
	"$$($(SWIFT) build -c release --show-bin-path)/chest-bench"
	bash scripts/bench.sh
	bash scripts/bench-seal-latency.sh
	python3 scripts/bench-hunt.py
	python3 scripts/bench-board-http.py
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
