# mk/install.mk: `make install` and `make uninstall` for chest.
#
# Included from the top Makefile (`include mk/install.mk`), or used alone: `make -f mk/install.mk install`.
#
#   make install                             everything under /usr/local (run as root, or with sudo)
#   make install PREFIX=/usr                 a distribution-style layout
#   make install DESTDIR=/tmp/stage          stage for packaging; paths inside files stay $(PREFIX)-based
#   make install PREFIX=$HOME/.local         a user install, no root needed: binaries, man pages,
#                                            completion and the user unit; udev rules need root (below)
#
# What goes where, and why there:
#   $(BINDIR)/chest                          bin/ of PREFIX: the one program, which is chest, chestd, chest-walk
#                                            or chest-weather by the name it is called by (argv[0]).
#   $(BINDIR)/chestd, $(BINDIR)/chest-walk   links to chest beside it (chest-walk: the GPS simulator's walks as
#                                            NMEA or GPX, for rehearsing quests).
#   $(LIBEXECDIR)/chest-weather             a relative link to $(BINDIR)/chest: chestd's weather helper (the
#                                            only code that talks HTTP). chestd runs its own file under that
#                                            name, so the link is for a person trying the helper by hand.
#   $(UDEVRULESDIR)/60-chest-gps.rules       $(PREFIX)/lib/udev/rules.d: the vendor rules directory, which
#                                            udev reads for PREFIX /usr and /usr/local. /etc/udev/rules.d is
#                                            left to the administrator, whose copy there overrides ours. With
#                                            another PREFIX udev never looks there: install the rules with
#                                            `sudo make install-udev UDEVRULESDIR=/etc/udev/rules.d`.
#   $(SYSTEMDUSERUNITDIR)/chestd.service     $(PREFIX)/lib/systemd/user, read by every user's systemd for
#                                            /usr and /usr/local; for PREFIX=$HOME/.local it is
#                                            ~/.local/share/systemd/user, the per-user unit directory.
#                                            ExecStart= is rewritten to $(BINDIR)/chestd.
#   $(MANDIR)/man1/chest.1, chest-walk.1,    share/man of PREFIX; the paths they name under /usr/local are
#     man8/chestd.8                          written as installed (/usr/lib/systemd/user for PREFIX=/usr).
#   $(BASHCOMPDIR)/chest                     share/bash-completion/completions of PREFIX, loaded on demand.
#   $(ZSHCOMPDIR)/_chest                     share/zsh/vendor-completions of PREFIX, on zsh's default fpath.
#   $(FISHCOMPDIR)/chest.fish                share/fish/vendor_completions.d of PREFIX, read by fish.
#   The three completion scripts are made by `chest --generate-completion-script bash|zsh|fish`.
#   $(DEMODIR)/hill.quest, fountain.txt,     share/chest/demo of PREFIX: the demo quest and walk that `chest demo`
#     waypoints.gpx, walk.txt                rehearses, found beside $(BINDIR) (demo/ of the source); the quest's
#                                            comments name them where they are installed.
#
# The build runs `swift build -c release --static-swift-stdlib --product chest` first. Under sudo, root may not
# have swift on PATH: build as yourself with `make install-release-build`, then
# `sudo make install SWIFT=$(command -v swift)`; the build step is then a quick no-op.

# Included before the top Makefile's first target, this file must not become the default goal.
CHEST_SAVED_DEFAULT_GOAL := $(.DEFAULT_GOAL)

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/chest
# A release build, unless CHEST_BUILT names a directory holding a `chest` already built (the install test's).
CONFIGURATION ?= release
CHEST_BUILT ?=
# The Swift runtime and Foundation linked in: smaller in memory (docs/BENCHMARKS.md), and no Swift needed where it
# runs. The C libraries (libgps, libsodium, libcurl, …) stay Debian's shared ones. No RUNPATH $ORIGIN: a copy of the
# program beside planted libraries would load them (docs/SECURITY.md "9. Small things").
STATIC ?= --static-swift-stdlib --disable-local-rpath
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
DEMODIR ?= $(PREFIX)/share/chest/demo
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
ifeq ($(PREFIX),$(HOME)/.local)
SYSTEMDUSERUNITDIR ?= $(PREFIX)/share/systemd/user
else
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user
endif
SWIFT ?= swift
INSTALL ?= install

# The repository root, wherever make was started from.
CHEST_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

CHEST_INSTALLED_FILES = \
	$(DESTDIR)$(BINDIR)/chestd \
	$(DESTDIR)$(BINDIR)/chest \
	$(DESTDIR)$(BINDIR)/chest-walk \
	$(DESTDIR)$(LIBEXECDIR)/chest-weather \
	$(DESTDIR)$(UDEVRULESDIR)/60-chest-gps.rules \
	$(DESTDIR)$(SYSTEMDUSERUNITDIR)/chestd.service \
	$(DESTDIR)$(MANDIR)/man1/chest.1 \
	$(DESTDIR)$(MANDIR)/man1/chest-walk.1 \
	$(DESTDIR)$(MANDIR)/man8/chestd.8 \
	$(DESTDIR)$(BASHCOMPDIR)/chest \
	$(DESTDIR)$(ZSHCOMPDIR)/_chest \
	$(DESTDIR)$(FISHCOMPDIR)/chest.fish \
	$(DESTDIR)$(DEMODIR)/hill.quest \
	$(DESTDIR)$(DEMODIR)/fountain.txt \
	$(DESTDIR)$(DEMODIR)/waypoints.gpx \
	$(DESTDIR)$(DEMODIR)/walk.txt

.PHONY: install uninstall install-release-build install-binaries install-udev install-unit install-docs install-demo

install: install-binaries install-udev install-unit install-docs install-demo
ifeq ($(DESTDIR),)
	@echo "Installed. Next:"
	@echo "  sudo udevadm control --reload             # then re-plug the GPS dongle"
	@echo "  systemctl --user daemon-reload && systemctl --user enable --now chestd"
endif

install-release-build:
	[ -n '$(CHEST_BUILT)' ] || { cd '$(CHEST_ROOT)' && \
		$(SWIFT) build -c $(CONFIGURATION) $(STATIC) --product chest; }

install-binaries: install-release-build
	bin='$(CHEST_BUILT)' && { [ -n "$$bin" ] || bin=$$(cd '$(CHEST_ROOT)' && $(SWIFT) build -c $(CONFIGURATION) --show-bin-path); } && \
	$(INSTALL) -d '$(DESTDIR)$(BINDIR)' && \
	$(INSTALL) -m 0755 "$$bin/chest" '$(DESTDIR)$(BINDIR)/chest' && \
	ln -sfn chest '$(DESTDIR)$(BINDIR)/chestd' && \
	ln -sfn chest '$(DESTDIR)$(BINDIR)/chest-walk' && \
	$(INSTALL) -d '$(DESTDIR)$(LIBEXECDIR)' && \
	ln -sfnr '$(DESTDIR)$(BINDIR)/chest' '$(DESTDIR)$(LIBEXECDIR)/chest-weather'

install-udev:
	$(INSTALL) -d '$(DESTDIR)$(UDEVRULESDIR)'
	$(INSTALL) -m 0644 '$(CHEST_ROOT)/udev/60-chest-gps.rules' '$(DESTDIR)$(UDEVRULESDIR)/60-chest-gps.rules'

install-unit:
	$(INSTALL) -d '$(DESTDIR)$(SYSTEMDUSERUNITDIR)'
	sed 's|^ExecStart=.*|ExecStart=$(BINDIR)/chestd|' '$(CHEST_ROOT)/udev/chestd.service' \
		> '$(DESTDIR)$(SYSTEMDUSERUNITDIR)/chestd.service.tmp'
	chmod 0644 '$(DESTDIR)$(SYSTEMDUSERUNITDIR)/chestd.service.tmp'
	mv '$(DESTDIR)$(SYSTEMDUSERUNITDIR)/chestd.service.tmp' '$(DESTDIR)$(SYSTEMDUSERUNITDIR)/chestd.service'

install-docs:
	$(INSTALL) -d '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(MANDIR)/man8' '$(DESTDIR)$(BASHCOMPDIR)' \
		'$(DESTDIR)$(ZSHCOMPDIR)' '$(DESTDIR)$(FISHCOMPDIR)'
	for page in man1/chest.1 man1/chest-walk.1 man8/chestd.8; do \
		sed -e 's|/usr/local/lib/systemd/user/|$(SYSTEMDUSERUNITDIR)/|g' -e 's|/usr/local/lib/udev/rules\.d/|$(UDEVRULESDIR)/|g' \
			-e 's|/usr/local/|$(PREFIX)/|g' "$(CHEST_ROOT)/docs/man/$${page#*/}" > '$(DESTDIR)$(MANDIR)/'"$$page.tmp" && \
		chmod 0644 '$(DESTDIR)$(MANDIR)/'"$$page.tmp" && \
		mv '$(DESTDIR)$(MANDIR)/'"$$page.tmp" '$(DESTDIR)$(MANDIR)/'"$$page" || exit 1; \
	done
	$(INSTALL) -m 0644 '$(CHEST_ROOT)/completion/chest.bash' '$(DESTDIR)$(BASHCOMPDIR)/chest'
	$(INSTALL) -m 0644 '$(CHEST_ROOT)/completion/_chest' '$(DESTDIR)$(ZSHCOMPDIR)/_chest'
	$(INSTALL) -m 0644 '$(CHEST_ROOT)/completion/chest.fish' '$(DESTDIR)$(FISHCOMPDIR)/chest.fish'

# The quest's comments (lines starting with #) name the files where they are installed, not demo/ of the source.
install-demo:
	$(INSTALL) -d '$(DESTDIR)$(DEMODIR)'
	$(INSTALL) -m 0644 '$(CHEST_ROOT)/demo/quest/fountain.txt' '$(CHEST_ROOT)/demo/quest/waypoints.gpx' \
		'$(CHEST_ROOT)/demo/walk.txt' '$(DESTDIR)$(DEMODIR)/'
	sed -e '/^#/s|demo/quest/|$(DEMODIR)/|g' -e '/^#/s|demo/walk\.txt|$(DEMODIR)/walk.txt|g' \
		'$(CHEST_ROOT)/demo/quest/hill.quest' > '$(DESTDIR)$(DEMODIR)/hill.quest.tmp'
	chmod 0644 '$(DESTDIR)$(DEMODIR)/hill.quest.tmp'
	mv '$(DESTDIR)$(DEMODIR)/hill.quest.tmp' '$(DESTDIR)$(DEMODIR)/hill.quest'

# Removes exactly what install put there; directories are left, as they may be shared.
uninstall:
	rm -f $(foreach file,$(CHEST_INSTALLED_FILES),'$(file)')

.DEFAULT_GOAL := $(CHEST_SAVED_DEFAULT_GOAL)
