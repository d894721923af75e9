#!/usr/bin/env bash
# check-programs.sh PROGRAM...: what `make dist` promises of the stripped programs it ships, checked
# before it packs them: each program's size and their sum, within the budget DESIGN.md gives; no
# symbol of a glibc newer than README's 2.34 (RHEL 9, Ubuntu 22.04, Debian 12), read from each
# program's version needs as the dynamic loader reads them; and no ICU, whose data (34 MB) comes with
# swift-corelibs Foundation: its data's table of contents names it icudtNNl, its code's error names
# U_ILLEGAL_ARGUMENT_ERROR, in any program that holds them, stripped or not.
set -euo pipefail
budget_mb=70
newest_glibc=2.34
status=0
total=0
for program in "$@"; do
    size=$(stat -c %s "$program")
    total=$((total + size))
    printf 'dist: %-14s %6.1f MB\n' "$(basename "$program")" "$(echo "$size / 1000000" | bc -l)"
    if grep -qaE 'icudt[0-9]+l|U_ILLEGAL_ARGUMENT_ERROR' "$program"; then
        echo "dist: $(basename "$program") holds ICU (Foundation's NSString, NSCalendar or another of its classes is linked in: \`-Xlinker -Map\` says who calls them)" >&2
        status=1
    fi
    # The glibc versions the program's symbols bind to (a static program has none), and those newer
    # than the promise, with their symbols.
    info=$(readelf -W --version-info "$program") || { echo "dist: readelf cannot read $program" >&2; status=1; continue; }
    versions=$(grep -oE 'GLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?' <<<"$info" | sort -uV || true)
    for version in $versions; do
        [ "$(printf '%s\n' "${version#GLIBC_}" "$newest_glibc" | sort -V | tail -1)" = "$newest_glibc" ] && continue
        echo "dist: $(basename "$program") needs $version, newer than GLIBC_$newest_glibc, for:" \
            $(objdump -T "$program" | grep -F "($version)" | awk '{ print $NF }') >&2
        status=1
    done
done
printf 'dist: %-14s %6.1f MB (budget %d MB)\n' "together" "$(echo "$total / 1000000" | bc -l)" "$budget_mb"
if [ "$total" -gt $((budget_mb * 1000000)) ]; then
    echo "dist: the programs take $total bytes, over the $budget_mb MB budget" >&2
    status=1
fi
exit "$status"
