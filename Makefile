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

# Debian packages the build needs (make install), and those the packages (`make dist`), the tests and
# the benchmarks need besides.
BUILD_PACKAGES := libsqlite3-dev pkg-config patchelf zlib1g-dev binutils
TEST_PACKAGES := sqlite3 bc python3 python3-pip systemd strace util-linux postgresql postgresql-client openssl valgrind man-db zip time pgbouncer gcc libc6-dev \
	apache2-bin apache2-utils nginx libnginx-mod-http-dav-ext curl \
	dpkg-dev lintian xz-utils

# The version: the release number in the VERSION file (CHANGELOG.md says what each brought), and the
# commit. `--version` says both.
COMMIT := $(or $(shell git rev-parse --short=12 HEAD 2>/dev/null),unknown)
VERSION := $(shell cat VERSION)
VERSION_HEADER := Sources/BuildVersion/version.generated.h

# The release build links the Swift runtime statically (journal links at a fixed address and
# journal-syncd position-independent: Package.swift says why).
# -fno-pch-timestamp: the Clang modules Swift imports (ours and the packages' C targets) otherwise record
# the modification times of their module maps, which SwiftPM writes anew in every build; the debug
# information names those modules by a signature made from them, and each object's .swift_modhash, a
# hash of its whole LLVM module, followed, and with it the build id: two clean builds of one commit
# differed there and nowhere else.
RELEASE_FLAGS := -c release --static-swift-stdlib -Xcc -Xclang -Xcc -fno-pch-timestamp
RELEASE_BIN = $(shell swift build $(RELEASE_FLAGS) --show-bin-path)

.PHONY: reproducible help deps test-deps apt-packages version build man man-pages install test bench fuzz clean dist

help:
	@echo "make install   build release binaries, install them into $(BINDIR) (PREFIX=...) and the user service"
	@echo "make test      build and run every test"
	@echo "make bench     release build, timed against the sqlite3 shell"
	@echo "make dist      a tarball with install.sh and a Debian package in dist/, for machines without Swift"
	@echo "make fuzz      libFuzzer on the segment decoder, import readers, time parser, settings reader, Health scanner and zip reader ($(FUZZ_SECONDS) s each)"

# Installs what a fresh Debian machine lacks to build (deps), or to test too (test-deps), as root or
# through sudo.
deps:
	@$(MAKE) --no-print-directory apt-packages PACKAGES="$(BUILD_PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory apt-packages PACKAGES="$(BUILD_PACKAGES) $(TEST_PACKAGES)"
	@# The tests' S3 server, moto_server, from PyPI (Debian packages no moto[server]).
	@command -v moto_server >/dev/null || [ -x "$$HOME/.local/bin/moto_server" ] || { echo "Installing: moto[server] (PyPI)"; \
		python3 -m pip install --quiet --user 'moto[server]>=5' 2>/dev/null || python3 -m pip install --quiet --user --break-system-packages 'moto[server]>=5'; }

apt-packages:
	@missing=$$(for package in $(PACKAGES); do dpkg -s $$package >/dev/null 2>&1 || echo $$package; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

# The version and commit, where BuildVersion.c reads them: rewritten only when they change, and
# BuildVersion.c touched then, so that a build made before the header existed is made again.
version:
	@grep -qxE '[0-9]+\.[0-9]+\.[0-9]+' VERSION || { echo "VERSION holds no release number (MAJOR.MINOR.PATCH): $$(head -c 80 VERSION)" >&2; exit 1; }
	@awk -v version="$(VERSION)" 'index($$0, "## " version " (") == 1 { found = 1 } END { exit !found }' CHANGELOG.md \
		|| { echo "CHANGELOG.md has no section for version $(VERSION) (## $(VERSION) (DATE))" >&2; exit 1; }
	@printf '#define JOURNAL_VERSION "%s"\n#define JOURNAL_COMMIT "%s"\n' "$(VERSION)" "$(COMMIT)" > "$(VERSION_HEADER).new"
	@if cmp -s "$(VERSION_HEADER).new" "$(VERSION_HEADER)"; then rm "$(VERSION_HEADER).new"; \
	else mv "$(VERSION_HEADER).new" "$(VERSION_HEADER)"; touch Sources/BuildVersion/BuildVersion.c; fi

# libstdc++, libsqlite3 and zlib are linked statically (glibc stays shared in journal-syncd; journal is
# one static file, see Package.swift): loading and relocating
# them cost every command more than all its own work, and a machine without Swift installs the
# programs alone. Linker scripts in the products folder, named as the shared libraries, send the
# linker to the static archives: it searches that folder before the system's (SQLite and zlib are
# linked as their module maps say, with no pkg-config file to put the system's folder first).
STATIC_LIBSTDCXX = $(lastword $(sort $(wildcard /usr/lib/gcc/*/*/libstdc++.a)))
STATIC_LIBSQLITE3 = $(shell pkg-config --variable=libdir sqlite3)/libsqlite3.a
STATIC_LIBZ = $(shell pkg-config --variable=libdir zlib)/libz.a

# The programs: journal, and journal-syncd, which also answers as journal-sync and journal-import.
PROGRAMS := journal journal-syncd

build: deps version
	mkdir -p "$(RELEASE_BIN)"
	printf 'GROUP ( %s )\n' "$(STATIC_LIBSTDCXX)" > "$(RELEASE_BIN)/libstdc++.so"
	printf 'GROUP ( %s )\n' "$(STATIC_LIBSQLITE3)" > "$(RELEASE_BIN)/libsqlite3.so"
	printf 'GROUP ( %s )\n' "$(STATIC_LIBZ)" > "$(RELEASE_BIN)/libz.so"
	@# SWIFT_DETERMINISTIC_HASHING: the compiler's own passes written in Swift iterate sets and
	@# dictionaries, whose order the runtime seeds at random in each process: two clean builds of one
	@# commit once laid out JournalStore.forgetPublishing differently (blocks and stack slots), and the
	@# programs differed in 264 bytes of code and their .swift_modhash.
	SWIFT_DETERMINISTIC_HASHING=1 swift build $(RELEASE_FLAGS) --product journal
	SWIFT_DETERMINISTIC_HASHING=1 swift build $(RELEASE_FLAGS) --product journal-syncd
	@# SwiftPM's rpath ($$ORIGIN) sends the loader through a dozen folders of the install for each
	@# shared library before the system's; with the Swift runtime linked in, nothing is looked for there.
	@# (journal, static, has no loader and no rpath.)
	patchelf --remove-rpath "$(RELEASE_BIN)/journal-syncd"
	@! ldd "$(RELEASE_BIN)/journal-syncd" | grep -E 'libstdc|libsqlite3|libz\.' \
		|| { echo "journal-syncd links libstdc++, libsqlite3 or zlib dynamically" >&2; exit 1; }
	@! readelf -lW "$(RELEASE_BIN)/journal" | grep -qE '^ *(INTERP|DYNAMIC) ' \
		|| { echo "journal is not one static file" >&2; exit 1; }

# Manual pages generated from the command definitions (swift-argument-parser's generate-manual reads
# each binary's --experimental-dump-help): one page per command, named as git's are (journal-add(1),
# journal-sync-init(1)), so that `man journal add` finds its page as `man git commit` does. A text
# line that starts with a quote would be read as a request: it is escaped; an empty line (between the
# paragraphs of a discussion) is a paragraph break, as mdoc writes one.
man: build
	swift build $(RELEASE_FLAGS) --product generate-manual
	$(MAKE) --no-print-directory man-pages MAN_BIN="$(RELEASE_BIN)" MAN_OUT=.build/man

# The pages of the binaries in MAN_BIN, written to MAN_OUT (the tests run it on the debug build).
MAN_DATE ?= $(shell git log -1 --format=%cs 2>/dev/null || date +%F)
man-pages:
	rm -rf "$(MAN_OUT)" && mkdir -p "$(MAN_OUT)"
	"$(MAN_BIN)/generate-manual" "$(MAN_BIN)/journal" --multi-page --date "$(MAN_DATE)" -o "$(MAN_OUT)"
	"$(MAN_BIN)/generate-manual" "$(MAN_BIN)/journal-syncd" --date "$(MAN_DATE)" -o "$(MAN_OUT)"
	@# journal-syncd has no subcommands: the help subcommand the parser's dump gives every root command
	@# (and the "subcommand" of its synopsis) would list one it does not have.
	awk '$$0 == ".Ar subcommand" { next } $$0 == ".It Em help" { drop = 1; next } drop && $$0 == ".El" { drop = 0; next } !drop { print }' \
		"$(MAN_OUT)/journal-syncd.1" > "$(MAN_OUT)/journal-syncd.1.tmp" && mv "$(MAN_OUT)/journal-syncd.1.tmp" "$(MAN_OUT)/journal-syncd.1"
	@# The sections a person wrote (commands with examples, exit statuses, files, signals) in place of
	@# the generated exit status.
	for page in journal journal-syncd; do \
		test -r "docs/man/$$page.sections" || { echo "docs/man/$$page.sections is missing" >&2; exit 1; }; \
		awk -v extra="docs/man/$$page.sections" '$$0 == ".Sh \"EXIT STATUS\"" { while ((getline line < extra) > 0) print line; skip = 1; next } \
			skip && /^\.Ex/ { skip = 0; next } { skip = 0; print }' \
			"$(MAN_OUT)/$$page.1" > "$(MAN_OUT)/$$page.1.tmp" && mv "$(MAN_OUT)/$$page.1.tmp" "$(MAN_OUT)/$$page.1" || exit 1; \
	done
	cd "$(MAN_OUT)" && for page in journal*.1; do \
		awk '($$1 == ".Xr" && $$2 ~ /^journal/) || $$1 == ".Dt" { gsub(/\./, "-", $$2) } /^'"'"'/ { $$0 = "\\&" $$0 } NF == 0 { $$0 = ".Pp" } { print }' "$$page" > "$$page.tmp" && rm "$$page"; \
		mv "$$page.tmp" "$$(echo "$${page%.1}" | tr . -).1"; \
	done

install: build man
	@# The unit first: a PREFIX it cannot name (relative, or one systemd starts no program from) is
	@# refused before anything is installed.
	sh systemd/write-unit.sh "$(BINDIR)" "$(DOCDIR)" > .build/journal-sync.service
	install -d "$(BINDIR)" "$(DOCDIR)" "$(UNITDIR)" "$(MANDIR)"
	install -m 0644 .build/man/*.1 "$(MANDIR)/"
	@# Stripped, as the package and the tarball have them.
	for program in $(PROGRAMS); do packaging/strip-program.sh "$(RELEASE_BIN)/$$program" .build/$$program.stripped \
		&& install -m 0755 .build/$$program.stripped "$(BINDIR)/$$program" || exit 1; done
	@# An earlier install had the importer as a program of its own: it goes.
	rm -f "$(BINDIR)/journal-import"
	install -m 0644 README.md LICENSE "$(DOCDIR)/"
	install -m 0644 .build/journal-sync.service "$(UNITDIR)/journal-sync.service"
	install -d "$(DATADIR)/bash-completion/completions" "$(DATADIR)/zsh/site-functions" "$(FISHDIR)"
	"$(BINDIR)/journal" --generate-completion-script bash > "$(DATADIR)/bash-completion/completions/journal"
	"$(BINDIR)/journal" --generate-completion-script zsh > "$(DATADIR)/zsh/site-functions/_journal"
	"$(BINDIR)/journal" --generate-completion-script fish > "$(FISHDIR)/journal.fish"
	@echo "Installed journal and journal-syncd into $(BINDIR), their manual pages into $(MANDIR) (man journal),"
	@echo "the journal-sync user service into $(UNITDIR),"
	@echo "and completions for bash, zsh (add $(DATADIR)/zsh/site-functions to fpath) and fish."
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "Add $(BINDIR) to your PATH to run it as 'journal'.";; esac
	@# A daemon already running keeps the old binary until restarted.
	@-systemctl --user try-restart journal-sync >/dev/null 2>&1 || true
	@echo "To sync in the background (after journal sync init):"
	@echo "  systemctl --user daemon-reload && systemctl --user enable --now journal-sync"

# The tests, then the packages a machine without Swift installs, built and checked as one would use them.
test: test-deps version
	swift build --build-tests
	swift build --product generate-manual
	swift test --skip-build
	$(MAKE) --no-print-directory dist
	Tests/Dist/check.sh "$(DIST)" "$(VERSION)"
	$(MAKE) --no-print-directory reproducible

# What a machine without Swift installs (`packaging/dist.sh` says what goes where), in DIST.
DIST ?= dist
dist: test-deps build man
	VERSION="$(VERSION)" COMMIT="$(COMMIT)" BIN="$(RELEASE_BIN)" MAN=.build/man DIST="$(DIST)" packaging/dist.sh

# The artifacts made again from a clean release build, byte for byte the same as those in DIST.
reproducible:
	rm -rf "$$(readlink -f .build/release)" .build/release .build/man "$(DIST).again"
	$(MAKE) --no-print-directory dist DIST="$(DIST).again"
	cmp "$(DIST)/SHA256SUMS" "$(DIST).again/SHA256SUMS" || { diff "$(DIST)/SHA256SUMS" "$(DIST).again/SHA256SUMS"; exit 1; }
	rm -rf "$(DIST).again"
	@echo "reproducible: a second clean build made the same artifacts"

bench: test-deps build
	BIN="$(RELEASE_BIN)" Tests/Benchmarks/bench.sh

# Each fuzz target runs for FUZZ_SECONDS from its seed corpus (Tests/Fuzz/Corpus); what it learns is
# kept in .build-fuzz/corpus, and an input that crashes one is saved in .build-fuzz/findings and fails
# the run. `.build/debug/fuzz-NAME FILE` replays a finding in an ordinary build.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := segments import time config health zip

fuzz: test-deps
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
	rm -rf .build .build-fuzz "$(DIST)" "$(VERSION_HEADER)"
