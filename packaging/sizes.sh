#!/usr/bin/env bash
# What each part of a release program costs, from its symbol table (so before stripping): the bytes
# of the code and data of each Swift module (by the module a mangled name starts with), of each C or
# C++ library (by its symbols' prefixes), and what no symbol covers (Swift's metadata sections,
# unwind tables, strings). Usage: packaging/sizes.sh PROGRAM...
set -euo pipefail
for program in "$@"; do
    stripped=$(mktemp)
    strip -o "$stripped" "$program"
    echo "== $(basename "$program"): $(stat -c %s "$program") bytes, $(stat -c %s "$stripped") stripped"
    rm -f "$stripped"
    nm --defined-only -S --size-sort -t d "$program" 2>/dev/null | awk '
        function part(name) {
            if (name ~ /^\$s[0-9]/) { match(name, /^\$s[0-9]+/); n = substr(name, 3, RLENGTH - 2) + 0; return substr(name, RLENGTH + 1, n) }
            if (name ~ /^\$s/) return "Swift (standard library)"
            if (name ~ /CCryptoBoringSSL/) return "BoringSSL (swift-crypto)"
            if (name ~ /CNIOBoringSSL/) return "BoringSSL (swift-nio-ssl)"
            if (name ~ /^sqlite3|^_?sqlite/) return "SQLite"
            if (name ~ /icu_[0-9]+|^u[a-z]*_.*_[0-9]+$|^icudt/) return "ICU"
            if (name ~ /^_Z/) return "C++ (libstdc++ and others)"
            if (name ~ /^(inflate|deflate|crc32|adler32|zlib|_tr_|zcalloc|zcfree|z_)/) return "zlib"
            if (name ~ /^swift_|^_swift/) return "Swift runtime"
            return "other C"
        }
        { size = $2 + 0; total += size; bytes[part($4)] += size }
        END { for (p in bytes) printf "%12d  %s\n", bytes[p], p; printf "%12d  (all symbols)\n", total }' | sort -rn | head -25
done
