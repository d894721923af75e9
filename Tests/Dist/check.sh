#!/usr/bin/env bash
# Checks what `make dist` wrote into DIST for VERSION as a person on a machine without Swift would use
# it: the Debian package's fields, files and lintian's verdict; every program run from the extracted
# package with /opt/swift hidden and an empty environment, journal static and journal-syncd linking
# glibc and libgcc_s alone; the tarball's install.sh against `make install`; and, as root, dpkg -i, a
# drink, every command of README's quick start, its manual page, and dpkg -r leaving no file of the
# package behind and the user's journal where it was.
# Usage: Tests/Dist/check.sh DIST VERSION
set -uo pipefail
dist=$1 version=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
name=journal-$version-linux-x86_64
deb=$dist/journal_${version}_amd64.deb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
programs=(journal journal-syncd)
# The journal's clock for the commands run here: the same answers from every install.
export JOURNAL_NOW=2026-11-21T15:30:00Z

for file in "$name.tar.gz" "$name-debug.tar.gz" "journal_${version}_amd64.deb" SHA256SUMS; do
    [ -f "$dist/$file" ] || fail "$dist/$file is missing"
done
(cd "$dist" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match the files"

# The package's fields: its version, and nothing needed of the system but glibc and libgcc.
info=$(dpkg-deb -f "$deb" Package Version Architecture Depends)
echo "$info"
grep -qx "Package: journal" <<<"$info" || fail "the package is not called journal"
grep -qx "Version: ${version//-/+}" <<<"$info" || fail "the package's version is not ${version//-/+}"
grep -qx "Architecture: amd64" <<<"$info" || fail "the package is not for amd64"
depends=$(sed -n 's/^Depends: //p' <<<"$info")
for dependency in ${depends//,/ }; do
    case $dependency in libc6 | libgcc-s1 | \(* | *\) | \>=) ;; *) fail "the package depends on $dependency" ;; esac
done
grep -q "libc6" <<<"$depends" || fail "the package does not depend on libc6"
# One maintainer script, prerm: installing it starts and enables nothing; removing it stops the
# daemon it runs (below).
dpkg-deb -e "$deb" "$work/control"
extra=$(ls "$work/control" | grep -vxE 'control|md5sums|prerm')
[ -z "$extra" ] || fail "the package has maintainer scripts beyond prerm: $extra"

# Its files: exactly these.
expected=$work/expected
{
    printf '%s\n' ./usr/bin/journal ./usr/bin/journal-syncd ./usr/lib/systemd/user/journal-sync.service \
        ./usr/share/bash-completion/completions/journal ./usr/share/zsh/vendor-completions/_journal \
        ./usr/share/fish/vendor_completions.d/journal.fish ./usr/share/doc/journal/README.md.gz \
        ./usr/share/doc/journal/copyright ./usr/share/doc/journal/changelog.gz ./usr/share/lintian/overrides/journal
    for page in "$repo"/.build/man/*.1; do echo "./usr/share/man/man1/$(basename "$page").gz"; done
} | sort > "$expected"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sort > "$work/listed"
diff -u "$expected" "$work/listed" && ok "the package holds $(wc -l < "$expected") files, as it should" || fail "the package's files differ (above)"
dpkg-deb -c "$deb" | awk '$2 != "root/root" { print }' | grep . >/dev/null && fail "the package has files not owned by root"

if command -v lintian >/dev/null; then
    lintian --fail-on error "$deb" > "$work/lintian" 2>&1 && ok "lintian finds no error" || fail "lintian finds errors"
    cat "$work/lintian"
else
    fail "lintian is not installed (make deps installs it)"
fi

# The programs: stripped (their size and glibc versions are make dist's checks); journal one static
# file (no loader at start-up), journal-syncd linking nothing but glibc and libgcc_s.
root=$work/root
dpkg-deb -x "$deb" "$root"
for program in "${programs[@]}"; do
    readelf -S "$root/usr/bin/$program" | grep -E '\.debug_info|\.symtab' >/dev/null && fail "$program is not stripped"
    if [ "$program" = journal ]; then
        readelf -lW "$root/usr/bin/$program" | grep -qE '^ *(INTERP|DYNAMIC) ' && fail "journal is not statically linked" \
            || ok "journal is statically linked"
        continue
    fi
    libraries=$(ldd "$root/usr/bin/$program" | awk '{ print $1 }' | sed 's|.*/||')
    for library in $libraries; do
        case $library in linux-vdso.so.1 | libc.so.6 | libm.so.6 | libgcc_s.so.1 | ld-linux-x86-64.so.2 | libpthread.so.0 | libdl.so.2 | librt.so.1) ;;
            *) fail "$program links $library" ;;
        esac
    done
done

# Debug symbols: one file per program, found by the program's build id.
tar -xzf "$dist/$name-debug.tar.gz" -C "$work" || fail "the debug tarball does not extract"
for program in "${programs[@]}"; do
    id=$(readelf -n "$root/usr/bin/$program" | awk '/Build ID/ { print $3 }')
    symbols=$work/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
    [ -n "$id" ] && readelf -S "$symbols" 2>/dev/null | grep debug_info >/dev/null && ok "$program's debug symbols are found by its build id" \
        || fail "no debug symbols for $program (build id $id)"
done

[ -d "$repo/.build/checkouts" ] || fail "no .build/checkouts: the copyright check has no packages to look for"
# The copyright file names every package whose modules are linked in: each Swift module in a
# program's symbols (its debug file keeps them) that a package of .build/checkouts holds as
# Sources/MODULE.
copyright=$root/usr/share/doc/journal/copyright
for program in "${programs[@]}"; do
    id=$(readelf -n "$root/usr/bin/$program" | awk '/Build ID/ { print $3 }')
    nm --defined-only "$work/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" 2>/dev/null \
        | awk '$3 ~ /^\$s[0-9]/ { match($3, /^\$s[0-9]+/); n = substr($3, 3, RLENGTH - 2) + 0; print substr($3, RLENGTH + 1, n) }' | sort -u \
        | while read -r module; do
            for folder in "$repo"/.build/checkouts/*/Sources/"$module"; do
                [ -d "$folder" ] || continue
                package=$(basename "$(dirname "$(dirname "$folder")")")
                grep -qE -- "(^|[[:space:],])$package([[:space:],/]|\$)" "$copyright" || echo "$package"
            done
        done
done | sort -u > "$work/unnamed"
[ -s "$work/unnamed" ] && fail "the copyright file does not name: $(tr '\n' ' ' < "$work/unnamed")" \
    || ok "the copyright file names every package linked in"

# Every program run from the extracted package with Swift out of sight: /opt/swift hidden, and an
# environment of nothing but PATH and HOME.
bare() { # bare HOME COMMAND...: runs COMMAND so; its output on stdout, its status its own
    local home=$1; shift
    unshare --mount sh -c 'mount -t tmpfs none /opt/swift 2>/dev/null; exec env -i PATH=/usr/bin:/bin HOME="$0" JOURNAL_NOW="$JOURNAL_NOW" "$@"' "$home" "$@"
}
home=$work/home
mkdir -p "$home"
out=$(bare "$home" "$root/usr/bin/journal" add espresso 2>&1) && grep -q "^Added espresso 64 mg" <<<"$out" \
    && ok "journal add espresso from the package: $out" || fail "journal add espresso from the package: $out"
out=$(bare "$home" "$root/usr/bin/journal" --version 2>&1) && grep -q "$version" <<<"$out" && ok "journal --version: $out" \
    || fail "journal --version: $out"
out=$(bare "$home" "$root/usr/bin/journal-syncd" --version 2>&1) && grep -q "$version" <<<"$out" && ok "journal-syncd --version: $out" \
    || fail "journal-syncd --version: $out"
out=$(bare "$home" "$root/usr/bin/journal" sync init --folder "$work/hub" 2>&1) && ok "journal sync init --folder from the package" \
    || fail "journal sync init --folder from the package: $out"
cat > "$work/export.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_US">
 <ExportDate value="2024-03-01 10:00:00 +0100"/>
 <Record type="HKQuantityTypeIdentifierDietaryCaffeine" sourceName="Coffee Tracker" unit="mg" creationDate="2024-02-28 08:00:00 +0100" startDate="2024-02-28 08:00:00 +0100" endDate="2024-02-28 08:00:00 +0100" value="64"/>
</HealthData>
XML
out=$(bare "$home" "$root/usr/bin/journal" import --from apple-health "$work/export.xml" 2>&1) && grep -q "^Imported 1 drink" <<<"$out" \
    && ok "journal import --from apple-health from the package" || fail "journal import --from apple-health from the package: $out"

# journal-syncd built without swift-corelibs Foundation (its calls from PostgresNIO go to
# FoundationStandIns, Package.swift) joins a real PostgreSQL hub: SCRAM-SHA-256, whose escaping of a
# user name with ',' and '=' runs through them (the server ignores that name, so this shows they run
# in the release program; FoundationStandInsTests shows they answer right), then a drink published
# and found on the server.
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$pg_bin" ]; then
    fail "PostgreSQL is not installed (make test-deps installs it)"
else
    # Its own folder: the server's user could not enter the check's (0700, root's).
    pg=$(mktemp -d)
    mkdir -p "$pg/data"
    run_pg=()
    if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$pg"; run_pg=(setpriv --reuid=postgres --regid=postgres --init-groups); fi
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "${run_pg[@]}" "$pg_bin/initdb" -D "$pg/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --no-sync > "$pg/initdb.log" 2>&1 \
        || fail "initdb: $(tail -3 "$pg/initdb.log")"
    printf "listen_addresses = 'localhost'\nport = %s\nunix_socket_directories = '%s'\nfsync = off\n" "$port" "$pg" >> "$pg/data/postgresql.conf"
    # Stopped whatever happens next, a start that timed out included (the server may still come up).
    trap '"${run_pg[@]}" "$pg_bin/pg_ctl" -D "$pg/data" -m immediate stop > /dev/null 2>&1; rm -rf "$work" "$pg"' EXIT
    if "${run_pg[@]}" "$pg_bin/pg_ctl" -D "$pg/data" -l "$pg/server.log" -w -t 60 start > /dev/null 2>&1; then
        psql -h "$pg" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
            -c "CREATE ROLE \"al,i=ce\" LOGIN PASSWORD 'dist-check'" -c "CREATE DATABASE journal OWNER \"al,i=ce\"" > "$pg/psql.log" 2>&1 \
            || fail "psql: $(cat "$pg/psql.log")"
        pg_home=$work/pg-home
        mkdir -p "$pg_home"
        printf 'localhost:%s:journal:al,i=ce:dist-check\n' "$port" > "$pg_home/.pgpass" && chmod 600 "$pg_home/.pgpass"
        out=$(bare "$pg_home" "$root/usr/bin/journal" sync init --hub "postgresql://al%2Ci%3Dce@localhost:$port/journal" 2>&1) \
            && ok "journal sync init with a PostgreSQL hub (SCRAM-SHA-256) from the package" \
            || fail "journal sync init with a PostgreSQL hub from the package: $out"
        bare "$pg_home" "$root/usr/bin/journal" add espresso > /dev/null 2>&1
        out=$(bare "$pg_home" "$root/usr/bin/journal" sync 2>&1) && ok "journal sync to the PostgreSQL hub: $out" \
            || fail "journal sync to the PostgreSQL hub: $out"
        segments=$(psql -h "$pg" -p "$port" -U postgres -d journal -At -c "SELECT count(*) FROM journal_hub.segments" 2>&1)
        [ "$segments" -ge 1 ] 2>/dev/null && ok "the hub holds $segments segments" || fail "the hub's segments: $segments"
    else
        fail "PostgreSQL did not start: $(tail -5 "$pg/server.log" 2>&1)"
    fi
fi

# The tarball's install.sh puts the same files where `make install` does, and they answer the same.
mkdir -p "$work/tarball" && tar -xzf "$dist/$name.tar.gz" -C "$work/tarball" || fail "the tarball does not extract"
mkdir -p "$work/one/home" "$work/two/home"
(cd "$work/tarball/$name" && env -i PATH=/usr/bin:/bin HOME="$work/one/home" ./install.sh PREFIX="$work/one/prefix" > "$work/one/said") \
    || fail "install.sh failed: $(cat "$work/one/said")"
# The build's caches (SwiftPM's, clang's) go elsewhere: only what is installed is compared.
env -u XDG_CONFIG_HOME -u XDG_DATA_HOME XDG_CACHE_HOME="$work/cache" HOME="$work/two/home" make -C "$repo" --no-print-directory install PREFIX="$work/two/prefix" > "$work/two/said" 2>&1 \
    || fail "make install failed: $(tail -5 "$work/two/said")"
for side in one two; do (cd "$work/$side" && find prefix home -type f | sort > files); done
# Both install the programs stripped: their debug sections are the debug tarball's.
for side in one two; do
    for program in journal journal-syncd; do
        readelf -S "$work/$side/prefix/bin/$program" | grep -q '\.debug_info' && fail "$side: $program is installed with its debug sections"
    done
done
ok "install.sh and make install put the programs stripped"
diff -u "$work/one/files" "$work/two/files" && ok "install.sh and make install put the same $(wc -l < "$work/one/files") files" \
    || fail "install.sh and make install put different files (above)"
for file in $(cat "$work/one/files"); do
    case $file in prefix/bin/*) continue ;; esac
    first=$(sed "s|$work/one|X|g" "$work/one/$file" 2>/dev/null | md5sum)
    second=$(sed "s|$work/two|X|g" "$work/two/$file" 2>/dev/null | md5sum)
    [ "$first" = "$second" ] || fail "$file differs between install.sh and make install"
done
# Drink ids are random: the same answers but for them.
for arguments in "add espresso" "add coffee --mg 120 --at 15:00" "status" "list" "--version"; do
    first=$(bare "$work/one/home" "$work/one/prefix/bin/journal" $arguments 2>&1 | sed -E 's/\b[0-9a-f]{8}\b/ID/g'; echo "status $?")
    second=$(bare "$work/two/home" "$work/two/prefix/bin/journal" $arguments 2>&1 | sed -E 's/\b[0-9a-f]{8}\b/ID/g'; echo "status $?")
    [ "$first" = "$second" ] && ok "journal $arguments: the same from both installs" || fail "journal $arguments differs: '$first' and '$second'"
done

# The package installed as a person would, as root: it works, its manual pages are found, and
# removing it leaves no file of it behind and the user's journal as it was.
if [ "$(id -u)" = 0 ]; then
    if dpkg -s journal >/dev/null 2>&1; then
        fail "a journal package is installed already: this check installs and removes its own"
    else
        dpkg -i "$deb" > "$work/dpkg" 2>&1 && ok "dpkg -i" || fail "dpkg -i: $(cat "$work/dpkg")"
        user=$work/user
        mkdir -p "$user"
        out=$(env -i PATH=/usr/bin:/bin HOME="$user" JOURNAL_NOW="$JOURNAL_NOW" journal add espresso 2>&1) && grep -q "^Added espresso" <<<"$out" \
            && ok "journal add espresso, installed: $out" || fail "journal add espresso, installed: $out"
        # Every command of README's quick start as written, in a home of its own (its `export PATH`
        # included): each succeeds, and the first that does not is named.
        awk '/^## Quick start/ { section = 1; next } section && /^```sh/ { block = 1; next } block && /^```/ { exit } block' \
            "$repo/README.md" > "$work/quick-start"
        commands=$(grep -c '^journal ' "$work/quick-start")
        reader=$work/reader
        mkdir -p "$reader"
        out=$(cd "$reader" && env -i PATH=/usr/bin:/bin HOME="$reader" JOURNAL_NOW="$JOURNAL_NOW" \
            bash -c 'set -e; trap "echo \"failed: \$BASH_COMMAND\"" ERR; . "$0"' "$work/quick-start" 2>&1) \
            && [ "$commands" -ge 5 ] && ok "README's quick start, installed: its $commands journal commands run" \
            || fail "README's quick start, installed ($commands journal commands): $out"
        page=$(env -i PATH=/usr/bin:/bin man -w journal-add 2>&1)
        [ "$page" = /usr/share/man/man1/journal-add.1.gz ] && env -i PATH=/usr/bin:/bin MANPAGER=cat man journal-add 2>/dev/null | grep "journal add" >/dev/null \
            && ok "man journal-add: $page" || fail "man journal-add: $page"
        [ -e /etc/systemd/user/default.target.wants/journal-sync.service ] && fail "installing enabled the user unit"
        grep -q "the Debian package in /usr/lib/systemd/user/" /usr/lib/systemd/user/journal-sync.service \
            && ok "the packaged unit says where the package put it" || fail "the packaged unit's comment does not say where it is"
        # A journal-syncd running from the package is stopped by its removal, and said so.
        env -i PATH=/usr/bin:/bin HOME="$user" /usr/bin/journal-syncd --log-level error > "$work/daemon.log" 2>&1 &
        daemon=$!
        for _ in $(seq 600); do [ -e "$user/.local/share/journal/journal.db.syncd-lock" ] && break; sleep 0.1; done
        [ -e "$user/.local/share/journal/journal.db.syncd-lock" ] || fail "the packaged journal-syncd did not start: $(cat "$work/daemon.log")"
        dpkg -r journal > "$work/dpkg" 2>&1 && ok "dpkg -r" || fail "dpkg -r: $(cat "$work/dpkg")"
        grep -q "stopping journal-syncd (pid $daemon, root's)" "$work/dpkg" && ok "dpkg -r said it stops journal-syncd" \
            || fail "dpkg -r did not say it stops journal-syncd: $(cat "$work/dpkg")"
        # Waited for as long as it takes: a daemon that stays is a failure that hangs here, not a pass.
        wait "$daemon" && ok "journal-syncd stopped, exit 0" || fail "journal-syncd ended with status $?: $(cat "$work/daemon.log")"
        left=$(sed 's|^\.||' "$expected" | while read -r file; do [ -e "$file" ] && echo "$file"; done)
        [ -z "$left" ] && ok "nothing of the package is left" || fail "dpkg -r left: $left"
        [ -s "$user/.local/share/journal/journal.db" ] && ok "the user's journal is still there" || fail "the user's journal went with the package"
    fi
else
    echo "not root: dpkg -i and dpkg -r are not tried here (CI runs as root and tries them)"
fi

echo
[ "$failures" = 0 ] && echo "dist: every check passed" || echo "dist: $failures checks failed"
exit $((failures > 0))
