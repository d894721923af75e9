# journal: build, install, test, bench. `make help` lists the targets.
SHELL := /bin/bash
PREFIX ?= $(HOME)/.local
BINDIR := $(PREFIX)/bin
DOCDIR := $(PREFIX)/share/doc/journal
# Under PREFIX/share/man, man finds the pages of any PREFIX/bin on PATH (~/.local/bin by default).
MANDIR := $(PREFIX)/share/man/man1
UNITDIR ?= $(or $(XDG_CONFIG_HOME),$(HOME)/.config)/systemd/user
DATADIR ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)
FISHDIR ?= $(or $(XDG_CONFIG_HOME),$(HOME)/.config)/fish/completions

# Debian packages the build and the tests need.
APT_PACKAGES := libsqlite3-dev sqlite3 pkg-config bc systemd strace util-linux postgresql postgresql-client openssl valgrind patchelf man-db zip time pgbouncer

# The release build links the Swift runtime statically and as a fixed-address executable: start-up
# is part of every command, and a position-independent binary spends it on ~40,000 relocations.
RELEASE_FLAGS := -c release --static-swift-stdlib -Xlinker -no-pie
RELEASE_BIN = $(shell swift build $(RELEASE_FLAGS) --show-bin-path)

.PHONY: help deps build man man-pages install test bench fuzz clean

help:
	@echo "make install   build release binaries, install them into $(BINDIR) (PREFIX=...) and the user service"
	@echo "make test      build and run every test"
	@echo "make bench     release build, timed against the sqlite3 shell"
	@echo "make fuzz      libFuzzer on the segment decoder, import readers, time parser, settings reader and Health scanner ($(FUZZ_SECONDS) s each)"

# Installs what a fresh Debian machine lacks (as root, or through sudo).
deps:
	@missing=$$(for package in $(APT_PACKAGES); do dpkg -s $$package >/dev/null 2>&1 || echo $$package; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

# libstdc++ and libsqlite3 are linked statically (glibc stays shared): loading and relocating them
# cost every command more than all its own work. The linker searches the products folder before the
# system's, so linker scripts there, named as the shared libraries, send it to the static archives.
STATIC_LIBSTDCXX = $(lastword $(sort $(wildcard /usr/lib/gcc/*/*/libstdc++.a)))
STATIC_LIBSQLITE3 = $(shell pkg-config --variable=libdir sqlite3)/libsqlite3.a

build: deps
	mkdir -p "$(RELEASE_BIN)"
	printf 'GROUP ( %s )\n' "$(STATIC_LIBSTDCXX)" > "$(RELEASE_BIN)/libstdc++.so"
	printf 'GROUP ( %s )\n' "$(STATIC_LIBSQLITE3)" > "$(RELEASE_BIN)/libsqlite3.so"
	swift build $(RELEASE_FLAGS) --product journal
	swift build $(RELEASE_FLAGS) --product journal-syncd
	swift build $(RELEASE_FLAGS) --product journal-import
	@# SwiftPM's rpath ($$ORIGIN) sends the loader through a dozen folders of the install for each
	@# shared library before the system's; with the Swift runtime linked in, nothing is looked for there.
	patchelf --remove-rpath "$(RELEASE_BIN)/journal" "$(RELEASE_BIN)/journal-syncd" "$(RELEASE_BIN)/journal-import"
	@! ldd "$(RELEASE_BIN)/journal" | grep -E 'libstdc|libsqlite3' || { echo "journal links libstdc++ or libsqlite3 dynamically" >&2; exit 1; }

# Manual pages generated from the command definitions (swift-argument-parser's generate-manual reads
# each binary's --experimental-dump-help): one page per command, named as git's are (journal-add(1),
# journal-sync-init(1)), so that `man journal add` finds its page as `man git commit` does. A text
# line that starts with a quote would be read as a request: it is escaped.
man: build
	swift build $(RELEASE_FLAGS) --product generate-manual
	$(MAKE) --no-print-directory man-pages MAN_BIN="$(RELEASE_BIN)" MAN_OUT=.build/man

# The pages of the binaries in MAN_BIN, written to MAN_OUT (the tests run it on the debug build).
MAN_DATE ?= $(shell git log -1 --format=%cs 2>/dev/null || date +%F)
man-pages:
	rm -rf "$(MAN_OUT)" && mkdir -p "$(MAN_OUT)"
	"$(MAN_BIN)/generate-manual" "$(MAN_BIN)/journal" --multi-page --date "$(MAN_DATE)" -o "$(MAN_OUT)"
	"$(MAN_BIN)/generate-manual" "$(MAN_BIN)/journal-syncd" --date "$(MAN_DATE)" -o "$(MAN_OUT)"
	cd "$(MAN_OUT)" && for page in journal*.1; do \
		awk '$$1 == ".Xr" || $$1 == ".Dt" { gsub(/\./, "-", $$2) } /^'"'"'/ { $$0 = "\\&" $$0 } { print }' "$$page" > "$$page.tmp" && rm "$$page"; \
		mv "$$page.tmp" "$$(echo "$${page%.1}" | tr . -).1"; \
	done

install: build man
	install -d "$(BINDIR)" "$(DOCDIR)" "$(UNITDIR)" "$(MANDIR)"
	install -m 0644 .build/man/*.1 "$(MANDIR)/"
	install -m 0755 "$(RELEASE_BIN)/journal" "$(RELEASE_BIN)/journal-syncd" "$(RELEASE_BIN)/journal-import" "$(BINDIR)/"
	install -m 0644 README.md "$(DOCDIR)/README.md"
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' systemd/journal-sync.service > "$(UNITDIR)/journal-sync.service"
	install -d "$(DATADIR)/bash-completion/completions" "$(DATADIR)/zsh/site-functions" "$(FISHDIR)"
	"$(BINDIR)/journal" --generate-completion-script bash > "$(DATADIR)/bash-completion/completions/journal"
	"$(BINDIR)/journal" --generate-completion-script zsh > "$(DATADIR)/zsh/site-functions/_journal"
	"$(BINDIR)/journal" --generate-completion-script fish > "$(FISHDIR)/journal.fish"
	@echo "Installed journal, journal-syncd and journal-import into $(BINDIR), their manual pages into $(MANDIR) (man journal),"
	@echo "the journal-sync user service into $(UNITDIR),"
	@echo "and completions for bash, zsh (add $(DATADIR)/zsh/site-functions to fpath) and fish."
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "Add $(BINDIR) to your PATH to run it as 'journal'.";; esac
	@# A daemon already running keeps the old binary until restarted.
	@-systemctl --user try-restart journal-sync >/dev/null 2>&1 || true
	@echo "To sync in the background (after journal sync init):"
	@echo "  systemctl --user daemon-reload && systemctl --user enable --now journal-sync"

test: deps
	swift build --build-tests
	swift build --product generate-manual
	swift test --skip-build

bench: build
	BIN="$(RELEASE_BIN)" Tests/Benchmarks/bench.sh

# Each fuzz target runs for FUZZ_SECONDS from its seed corpus (Tests/Fuzz/Corpus); what it learns is
# kept in .build-fuzz/corpus, and an input that crashes one is saved in .build-fuzz/findings and fails
# the run. `.build/debug/fuzz-NAME FILE` replays a finding in an ordinary build.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := segments import time config health

fuzz: deps
	@for target in $(FUZZ_TARGETS); do \
		JOURNAL_FUZZ=1 swift build --product fuzz-$$target --scratch-path .build-fuzz -q || exit 1; \
	done
	@mkdir -p .build-fuzz/findings; status=0; \
	for target in $(FUZZ_TARGETS); do \
		mkdir -p .build-fuzz/corpus/$$target; cp -n Tests/Fuzz/Corpus/$$target/* .build-fuzz/corpus/$$target/; \
		.build-fuzz/debug/fuzz-$$target .build-fuzz/corpus/$$target -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
			-print_final_stats=1 -artifact_prefix=.build-fuzz/findings/$$target- > .build-fuzz/$$target.log 2>&1 || status=1; \
		runs=$$(grep -o 'stat::number_of_executed_units: *[0-9]*' .build-fuzz/$$target.log | grep -o '[0-9]*$$'); \
		corpus=$$(ls .build-fuzz/corpus/$$target | wc -l); \
		findings=$$(ls .build-fuzz/findings | grep -c "^$$target-" || true); \
		printf '%-9s %10s executions, corpus %5s inputs, %s findings\n' $$target "$$runs" $$corpus $$findings; \
	done; exit $$status

clean:
	rm -rf .build .build-fuzz
