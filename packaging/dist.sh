#!/usr/bin/env bash
# make dist: what a machine without Swift installs, in $DIST: a tarball with install.sh, a Debian
# package, and the programs' debug symbols beside them, all made from the release build in $BIN and the
# manual pages in $MAN, for $VERSION built from $COMMIT. Built twice from one commit, they are the same
# bytes: times are the commit's, owners root, names sorted, nothing compressed with a time or a name.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${VERSION:?}" "${COMMIT:?}" "${BIN:?}" "${MAN:?}" "${DIST:=dist}"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
export LC_ALL=C TZ=UTC
umask 022

programs=(journal journal-syncd)
arch=x86_64
name=journal-$VERSION-linux-$arch
# Debian's version: no hyphen in a package without a Debian revision, so 0.0.0-1a2b... is 0.0.0+1a2b...
deb_version=${VERSION//-/+}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$DIST" && mkdir -p "$DIST"

# The programs without their debug sections, which go, by build id, to the debug tarball: a crash
# report's addresses are read with them (gdb looks in /usr/lib/debug/.build-id).
mkdir -p "$work/bin" "$work/debug/usr/lib/debug/.build-id"
for program in "${programs[@]}"; do
    id=$(readelf -n "$BIN/$program" | awk '/Build ID/ { print $3 }')
    [ -n "$id" ] || { echo "dist: $BIN/$program has no build id" >&2; exit 1; }
    mkdir -p "$work/debug/usr/lib/debug/.build-id/${id:0:2}"
    objcopy --only-keep-debug "$BIN/$program" "$work/debug/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
    "$(dirname "$0")/strip-program.sh" "$BIN/$program" "$work/bin/$program"
done
# Their size and the glibc they need, within what README and DESIGN promise.
"$(dirname "$0")/check-programs.sh" "${programs[@]/#/$work/bin/}"

# Completions, as `make install` writes them from the installed program.
mkdir -p "$work/completions"
"$work/bin/journal" --generate-completion-script bash > "$work/completions/journal.bash"
"$work/bin/journal" --generate-completion-script zsh > "$work/completions/_journal"
"$work/bin/journal" --generate-completion-script fish > "$work/completions/journal.fish"

# A tree with every file's time the commit's and its mode 0755 or 0644, packed as files of root's.
settle() {
    find "$1" -type d -exec chmod 0755 {} +
    find "$1" -type f ! -perm -u+x -exec chmod 0644 {} +
    find "$1" -type f -perm -u+x -exec chmod 0755 {} +
    find "$1" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
}
pack() { # pack FOLDER ENTRY OUTPUT: ENTRY of FOLDER, as a .tar.gz
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" --format=gnu \
        -C "$1" -cf - "$2" | gzip -9n > "$3"
}

# The tarball: programs, pages, completions, the user unit and write-unit.sh (with which install.sh
# fills in its paths), the README and the licence, and install.sh.
tree=$work/tarball/$name
mkdir -p "$tree/bin" "$tree/share/man/man1" "$tree/completions" "$tree/systemd"
cp "$work"/bin/* "$tree/bin/"
cp "$MAN"/*.1 "$tree/share/man/man1/"
cp "$work"/completions/* "$tree/completions/"
cp systemd/journal-sync.service systemd/write-unit.sh "$tree/systemd/"
cp README.md LICENSE "$tree/"
cp packaging/install.sh "$tree/install.sh" && chmod 0755 "$tree/install.sh"
settle "$work/tarball"
pack "$work/tarball" "$name" "$DIST/$name.tar.gz"

# The Debian package: the same, where Debian keeps each (pages compressed, the unit for systemd's
# user manager, completions in the shells' vendor folders), with no maintainer scripts: installing
# it starts and enables nothing.
root=$work/deb
doc=$root/usr/share/doc/journal
mkdir -p "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/lib/systemd/user" "$doc" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"
cp "$work"/bin/* "$root/usr/bin/"
for page in "$MAN"/*.1; do gzip -9n < "$page" > "$root/usr/share/man/man1/$(basename "$page").gz"; done
sh systemd/write-unit.sh /usr/bin /usr/share/doc/journal > "$root/usr/lib/systemd/user/journal-sync.service"
cp "$work/completions/journal.bash" "$root/usr/share/bash-completion/completions/journal"
cp "$work/completions/_journal" "$root/usr/share/zsh/vendor-completions/_journal"
cp "$work/completions/journal.fish" "$root/usr/share/fish/vendor_completions.d/journal.fish"
gzip -9n < README.md > "$doc/README.md.gz"
cp packaging/debian/copyright "$doc/copyright"
mkdir -p "$root/usr/share/lintian/overrides"
cp packaging/debian/lintian-overrides "$root/usr/share/lintian/overrides/journal"
date=$(date -R --date="@$SOURCE_DATE_EPOCH")
# The changelog's entries: the version's section of CHANGELOG.md, each paragraph or "- " item an entry,
# "  * " before its first line and four spaces before the others, wrapped at 80 columns as Debian's
# changelogs are.
awk -v version="$VERSION" '
    function flush(    words, count, i, line) {
        if (entry == "") return
        count = split(entry, words, " ")
        line = "  *"
        for (i = 1; i <= count; i++) {
            if (length(line) + 1 + length(words[i]) > 80 && line != "  *" && line != "   ") { print line; line = "   " }
            line = line " " words[i]
        }
        print line
        entry = ""
    }
    index($0, "## ") == 1 { flush(); inside = index($0, "## " version " (") == 1; next }
    !inside { next }
    /^$/ { flush(); next }
    /^- / { flush(); entry = substr($0, 3); next }
    { sub(/^ +/, ""); entry = entry == "" ? $0 : entry " " $0 }
    END { flush() }' CHANGELOG.md > "$work/entries"
[ -s "$work/entries" ] || { echo "dist: CHANGELOG.md has no section for $VERSION" >&2; exit 1; }
sed -e "s|@VERSION@|$deb_version|g" -e "s|@COMMIT@|$COMMIT|g" -e "s|@DATE@|$date|g" -e "/@ENTRIES@/{r $work/entries" -e "d}" \
    packaging/debian/changelog.in | gzip -9n > "$doc/changelog.gz"
# What the programs need of the system, as Debian names it (dpkg-shlibdeps reads their libraries):
# journal-syncd's; journal, one static file, needs nothing.
mkdir -p "$work/shlibs/debian"
printf 'Source: journal\n\nPackage: journal\nArchitecture: amd64\n' > "$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O --warnings=0 "-e$root/usr/bin/journal-syncd" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "dist: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
mkdir -p "$root/DEBIAN"
settle "$root"
(cd "$root" && find usr -type f | sort | xargs md5sum > DEBIAN/md5sums)
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$deb_version|g" -e "s|@DEPENDS@|$depends|g" -e "s|@SIZE@|$size|g" packaging/debian/control.in > "$root/DEBIAN/control"
# Its one maintainer script: removing the package stops the journal-syncd it runs (packaging/debian/prerm).
install -m 755 packaging/debian/prerm "$root/DEBIAN/prerm"
settle "$root"
dpkg-deb --root-owner-group -Zxz --build "$root" "$DIST/journal_${VERSION}_amd64.deb" >/dev/null

# The debug symbols, by build id.
settle "$work/debug"
pack "$work/debug" usr "$DIST/$name-debug.tar.gz"

(cd "$DIST" && sha256sum -- * > SHA256SUMS)
echo "dist: $(ls "$DIST" | tr '\n' ' ')"
