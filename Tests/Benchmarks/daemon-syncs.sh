#!/usr/bin/env bash
# Instructions of the syncs a running daemon makes, counted inside the daemon (callgrind, instrumentation
# switched on after its start, counters dumped after each scene): what an add on another machine costs
# this one (the rings that bring one drink over its hub), and a sync with nothing to do (a request,
# SIGUSR1, which reads the whole hub). A `journal-sync sync` process costs more: its start-up (the
# argument parser, opening the journal and the keys) is about 18 M of the figures bench.sh prints.
# Run by bench.sh on a folder hub, and by postgres.sh on a server's (HUB: its URL, a database of its
# own; HUB_NAME: what the lines call it), or alone: BIN=... bash Tests/Benchmarks/daemon-syncs.sh.
# Exits 1 when a budget is missed.
set -euo pipefail
bin=${BIN:-.build/release}
scenes=${SCENES:-5}
own_work=$(mktemp -d)
hub=${HUB:-$own_work/hub}
hub_name=${HUB_NAME:-folder hub}
daemon_pid=
cleanup() {
    if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi
    [ -n "${KEEP:-}" ] && echo "kept $own_work" >&2 || rm -rf "$own_work"
}
trap cleanup EXIT
home() { env HOME="$own_work/$1" XDG_DATA_HOME="$own_work/$1/data" XDG_CONFIG_HOME="$own_work/$1/config" NO_COLOR=1 "$bin/${JOURNAL:-journal}" "${@:2}"; }
b_db="$own_work/b/data/journal/journal.db"

home a add espresso >/dev/null
home b add tea >/dev/null
[ -n "${HUB:-}" ] || mkdir -p "$hub"
home a sync init --hub "$hub" >/dev/null
home a sync key | home b sync init --hub "$hub" --key-file - >/dev/null
home b sync >/dev/null
home a sync >/dev/null
home b sync >/dev/null

# wait_for SQL: polls B's journal until SQL answers 1 (at most two minutes: valgrind is slow).
wait_for() {
    local tries=0
    until [ "$(sqlite3 "$b_db" "$1" 2>/dev/null)" = 1 ]; do
        tries=$((tries + 1))
        if [ "$tries" -gt ${WAIT_TRIES:-2400} ]; then echo "daemon-syncs: timed out waiting for: $1" >&2; exit 1; fi
        sleep 0.05
    done
}
last_sync() { sqlite3 "$b_db" "SELECT coalesce(last_sync_at, 0) FROM sync_hub"; }

# dump_millions: dumps and zeroes the daemon's counters, and prints the instructions counted since, in millions.
dump_count=0
dump_millions() {
    callgrind_control -d "$daemon_pid" >/dev/null 2>&1
    dump_count=$((dump_count + 1))
    local file
    file=$(ls -t "$own_work"/callgrind.out.* | head -1)
    awk '/^(summary|totals):/ { printf "%.2f", $2 / 1e6; exit }' "$file"
    callgrind_control -z "$daemon_pid" >/dev/null 2>&1
}

# The daemon without its DWARF, which valgrind's reader cannot take.
strip -g -o "$own_work/journal-syncd" "$bin/journal-syncd"
before=$(last_sync)
env HOME="$own_work/b" XDG_DATA_HOME="$own_work/b/data" XDG_CONFIG_HOME="$own_work/b/config" \
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$own_work/callgrind.out.%p" \
    "$own_work/journal-syncd" 2>"$own_work/daemon.log" &
daemon_pid=$!
# Its start-up sync over, and its watches set.
wait_for "SELECT coalesce(last_sync_at, 0) > $before FROM sync_hub"
callgrind_control -i on "$daemon_pid" >/dev/null 2>&1
callgrind_control -z "$daemon_pid" >/dev/null 2>&1

for ((i = 0; i < scenes; i++)); do
    home a add espresso --note "ring $i" >/dev/null
    home a sync >/dev/null
    wait_for "SELECT count(*) = 1 FROM drinks WHERE note = 'ring $i'"
done
ring=$(dump_millions)

for ((i = 0; i < scenes; i++)); do
    before=$(last_sync)
    kill -USR1 "$daemon_pid"
    wait_for "SELECT last_sync_at > $before FROM sync_hub"
done
idle=$(dump_millions)

# report NAME MILLIONS BUDGET NOTE: one line, and whether the budget holds.
misses=0
report() {
    local per verdict=ok
    per=$(echo "$2 / $scenes" | bc -l)
    if ! (( $(echo "$per <= $3" | bc -l) )); then verdict="OVER BUDGET"; misses=$((misses + 1)); fi
    printf '%-34s %9.2f M  (%s; budget %s M) %s\n' "$1" "$per" "$4" "$3" "$verdict"
}
report "daemon syncs bringing one drink" "$ring" 15 "in the daemon, per add on another machine, $hub_name"
report "daemon sync with nothing to do" "$idle" 10 "in the daemon, per request (SIGUSR1), $hub_name"
exit $((misses > 0 ? 1 : 0))
