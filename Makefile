# journal: build, install, test, bench. `make help` lists the targets.
SHELL := /bin/bash
PREFIX ?= $(HOME)/.local
BINDIR := $(PREFIX)/bin
DOCDIR := $(PREFIX)/share/doc/journal
UNITDIR ?= $(or $(XDG_CONFIG_HOME),$(HOME)/.config)/systemd/user
DATADIR ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)
FISHDIR ?= $(or $(XDG_CONFIG_HOME),$(HOME)/.config)/fish/completions

# Debian packages the build and the tests need.
APT_PACKAGES := libsqlite3-dev sqlite3 pkg-config bc systemd

# The release build links the Swift runtime statically and as a fixed-address executable: start-up
# is part of every command, and a position-independent binary spends it on ~40,000 relocations.
RELEASE_FLAGS := -c release --static-swift-stdlib -Xlinker -no-pie
RELEASE_BIN = $(shell swift build $(RELEASE_FLAGS) --show-bin-path)

.PHONY: help deps build install test bench clean

help:
	@echo "make install   build release binaries, install them into $(BINDIR) (PREFIX=...) and the user service"
	@echo "make test      build and run every test"
	@echo "make bench     release build, timed against the sqlite3 shell"

# Installs what a fresh Debian machine lacks (as root, or through sudo).
deps:
	@missing=$$(for package in $(APT_PACKAGES); do dpkg -s $$package >/dev/null 2>&1 || echo $$package; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

build: deps
	swift build $(RELEASE_FLAGS) --product journal
	swift build $(RELEASE_FLAGS) --product journal-syncd

install: build
	install -d "$(BINDIR)" "$(DOCDIR)" "$(UNITDIR)"
	install -m 0755 "$(RELEASE_BIN)/journal" "$(RELEASE_BIN)/journal-syncd" "$(BINDIR)/"
	install -m 0644 README.md "$(DOCDIR)/README.md"
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' systemd/journal-sync.service > "$(UNITDIR)/journal-sync.service"
	install -d "$(DATADIR)/bash-completion/completions" "$(DATADIR)/zsh/site-functions" "$(FISHDIR)"
	"$(BINDIR)/journal" --generate-completion-script bash > "$(DATADIR)/bash-completion/completions/journal"
	"$(BINDIR)/journal" --generate-completion-script zsh > "$(DATADIR)/zsh/site-functions/_journal"
	"$(BINDIR)/journal" --generate-completion-script fish > "$(FISHDIR)/journal.fish"
	@echo "Installed journal and journal-syncd into $(BINDIR), the journal-sync user service into $(UNITDIR),"
	@echo "and completions for bash, zsh (add $(DATADIR)/zsh/site-functions to fpath) and fish."
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "Add $(BINDIR) to your PATH to run it as 'journal'.";; esac
	@# A daemon already running keeps the old binary until restarted.
	@-systemctl --user try-restart journal-sync >/dev/null 2>&1 || true
	@echo "To sync in the background (after journal sync init):"
	@echo "  systemctl --user daemon-reload && systemctl --user enable --now journal-sync"

test: deps
	swift build --build-tests
	swift test --skip-build

bench: build
	BIN="$(RELEASE_BIN)" Tests/Benchmarks/bench.sh

clean:
	rm -rf .build
