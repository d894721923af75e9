#!/usr/bin/env bash
# make bench: wall times of the release build against the sqlite3 shell doing the same work on the same
# file, measured side by side in one run (runs alternate, so a busy moment hits both), as median ratios.
set -euo pipefail
. "$(dirname "$0")/arrival.sh"
. "$(dirname "$0")/failed-part.sh"

bin=${BIN:-.build/release}
runs=${RUNS:-41}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The programs as `make install` puts them, stripped and then copied: what a person runs. Fresh from
# the linker, the build's own sit in the page cache in 2 MiB folios here (ext4, Linux 6.18): a daemon
# that let go of its code pages then has each bit of code it runs next mapped back 2 MiB at a time,
# 20 MiB more resident than a copy (measured: 28 MiB against 9-10).
mkdir -p "$work/bin"
for program in journal journal-syncd; do
    "$(dirname "$0")/../../packaging/strip-program.sh" "$bin/$program" "$work/bin/$program.stripped"
    install -m 0755 "$work/bin/$program.stripped" "$work/bin/$program"
done
bin=$work/bin
export HOME="$work/home" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" NO_COLOR=1
journal="$bin/journal"

# median_ms FILE: the median of the seconds in FILE, in milliseconds.
median_ms() { sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] * 1000 }'; }

# time_into FILE COMMAND...: appends the wall time of one run of COMMAND, in seconds.
time_into() {
    local out=$1; shift
    local start=$EPOCHREALTIME
    "$@" >/dev/null
    local end=$EPOCHREALTIME
    echo "$end - $start" | bc -l >>"$out"
}

# judge CONDITION [WORD]: ok when the bc CONDITION holds, else WORD (OVER BUDGET), also written to a file
# the exit status counts: a verdict is printed from a command substitution, a subshell whose variables
# die with it.
failures=0
: >"$work/misses"
judge() { if (( $(echo "$1" | bc -l) )); then echo ok; else echo "${2:-OVER BUDGET}" | tee -a "$work/misses"; fi; }

# compare NAME BUDGET: runs the journal command in $ours and the sqlite3 command in $theirs alternately,
# prints medians and their ratio, and records whether the budget holds.
compare() {
    local name=$1 budget=$2
    : >"$work/ours" ; : >"$work/theirs"
    for ((i = 0; i < runs; i++)); do
        time_into "$work/ours" "${ours[@]}"
        time_into "$work/theirs" "${theirs[@]}"
    done
    local a b ratio verdict
    a=$(median_ms "$work/ours"); b=$(median_ms "$work/theirs")
    ratio=$(echo "scale=2; $a / $b" | bc -l)
    if (( $(echo "$ratio <= $budget" | bc -l) )); then verdict=ok; else verdict="OVER BUDGET"; failures=$((failures + 1)); fi
    printf '%-34s %9s ms %9s ms %7sx  (budget %sx) %s\n' "$name" "$a" "$b" "$ratio" "$budget" "$verdict"
}

printf '%-34s %12s %12s %8s\n' "what" "journal" "sqlite3" "ratio"

# journal add: the same row into the same file.
db="$work/add.db"
"$journal" --db "$db" add espresso >/dev/null
ours=("$journal" --db "$db" add espresso)
theirs=(sqlite3 "$db" "INSERT INTO drinks (id, kind, caffeine_mg, consumed_at, note, deleted, hlc, origin, seq)
    VALUES (lower(hex(randomblob(16))), 'espresso', 64, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), NULL, 0,
            CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) << 16, 'bench', (SELECT coalesce(max(seq), 0) + 1 FROM drinks))")
compare "journal add espresso" 0.95

# A journal of 100,000 drinks over about three years, one every 15 minutes, for status and list.
big="$work/big.db"
"$journal" --db "$big" path >/dev/null
now_ms=$(($(date +%s) * 1000))
"$journal" --db "$big" status >/dev/null
sqlite3 "$big" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
    INSERT INTO drinks (id, kind, caffeine_mg, consumed_at, note, deleted, hlc, origin, seq)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
               || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
           'espresso', 64, $now_ms - i * 900000, NULL, 0, ($now_ms - i * 900000) << 16, 'bench', i
    FROM n"
# status reads the drinks of the last 24 half-lives (120 h at 5 h), when older ones no longer show.
window_start=$((now_ms - 120 * 3600 * 1000))

# The drinks status reads, as the shell reads them: caffeine, time, and whether the kind is slow.
window_sql="SELECT caffeine_mg, consumed_at, kind IN ('soft-drink', 'chocolate') FROM drinks WHERE deleted = 0 AND consumed_at > $window_start"
# A profile: the personal model (a weight and a condition) and a bedtime, whose forecasts search the
# night minute by minute; its half-life (8.65 h) widens the window to 208 hours.
profile_config="$work/profile-config"
mkdir -p "$profile_config/journal"
printf 'weight_kg = 70\nconditions = ["oral-contraceptives"]\nbedtime = "23:30"\n' >"$profile_config/journal/config.toml"
profile_window_sql="SELECT caffeine_mg, consumed_at, kind IN ('soft-drink', 'chocolate') FROM drinks WHERE deleted = 0 AND consumed_at > $((now_ms - 208 * 3600 * 1000))"

# everyday LABEL SHELL_DB: status and list on the big journal against the sqlite3 shell on SHELL_DB.
everyday() {
    ours=("$journal" --db "$big" status)
    theirs=(sqlite3 "$2" "$window_sql")
    compare "journal status (100k drinks$1)" 1.2
    XDG_CONFIG_HOME="$profile_config"
    ours=("$journal" --db "$big" status)
    theirs=(sqlite3 "$2" "$profile_window_sql")
    compare "status, with a profile (100k$1)" 1.2
    XDG_CONFIG_HOME="$work/config"
    ours=("$journal" --db "$big" list --limit 20)
    theirs=(sqlite3 "$2" "SELECT id, kind, caffeine_mg, consumed_at, note FROM drinks WHERE deleted = 0
        ORDER BY consumed_at DESC, id DESC LIMIT 20")
    compare "journal list --limit 20 (100k$1)" 1.2
}
everyday "" "$big"

# The fresh journal as the instruction counts below see it: its WAL checkpointed away.
sqlite3 "$big" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
cp "$big" "$work/fresh.db"

# A month of use: 3,000 adds made by journal alone, then the same commands again: their cost must not
# grow with the writes made before. Each program now works on its own copy of that same file, and keeps
# it as it would: sharing one file, the shell (checkpointing and deleting the WAL on close) would hand
# journal an empty WAL every other run and hide what use leaves behind, or, told not to, would leave
# journal to checkpoint the shell's writes as well as its own.
for ((i = 0; i < 3000; i++)); do "$journal" --db "$big" add espresso --at "$((i % 50 + 1)) min ago" >/dev/null; done
cp "$big" "$work/used.db"; cp "$big-wal" "$work/used.db-wal" 2>/dev/null || true
cp "$big" "$work/shell.db"; cp "$big-wal" "$work/shell.db-wal" 2>/dev/null || true
used_wal_kib=$(( $(stat -c %s "$big-wal" 2>/dev/null || echo 0) / 1024 ))
ours=("$journal" --db "$big" add espresso)
theirs=(sqlite3 "$work/shell.db" "INSERT INTO drinks (id, kind, caffeine_mg, consumed_at, note, deleted, hlc, origin, seq)
    VALUES (lower(hex(randomblob(16))), 'espresso', 64, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), NULL, 0,
            CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) << 16, 'bench', (SELECT coalesce(max(seq), 0) + 1 FROM drinks))")
compare "journal add espresso (after 3k adds)" 0.95
everyday ", after 3k adds" "$work/shell.db"
printf '%-34s %9s KiB (WAL right after the 3,000 adds), %s KiB now\n' "write-ahead log" "$used_wal_kib" \
    "$(( $(stat -c %s "$big-wal" 2>/dev/null || echo 0) / 1024 ))"

# Instructions (callgrind), which a busy machine does not change: each command once, on a copy of the
# big journal as it was fresh and as the 3,000 adds left it (its WAL included), against the sqlite3
# shell's same work on the same copy. The binary without its DWARF (valgrind 3.19 cannot read Swift's).
strip -g -o "$work/journal-nodebug" "$journal"
# instructions STATE COMMAND...: millions of instructions of COMMAND on a copy of STATE.db (and its WAL).
instructions() {
    local state=$1; shift
    rm -f "$work/count.db" "$work/count.db-wal" "$work/count.db-shm"
    cp "$work/$state.db" "$work/count.db"
    if [ -e "$work/$state.db-wal" ]; then cp "$work/$state.db-wal" "$work/count.db-wal"; fi
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/Collected/ { printf "%.1f", $4 / 1e6 }'
}
count_insert="INSERT INTO drinks (id, kind, caffeine_mg, consumed_at, note, deleted, hlc, origin, seq) VALUES (lower(hex(randomblob(16))), 'espresso', 64, 0, NULL, 0, 0, 'bench', (SELECT coalesce(max(seq), 0) + 1 FROM drinks))"
count_status=$window_sql
count_list="SELECT id, kind, caffeine_mg, consumed_at, note FROM drinks WHERE deleted = 0 ORDER BY consumed_at DESC, id DESC LIMIT 20"
printf '%-34s %9s    %9s    (millions of instructions)\n' "instructions" "journal" "sqlite3"
for state in fresh used; do
    label=$([ $state = fresh ] && echo "" || echo ", after 3k adds")
    printf '%-34s %9s M  %9s M\n' "add$label" \
        "$(instructions $state "$work/journal-nodebug" --db "$work/count.db" add espresso)" \
        "$(instructions $state sqlite3 "$work/count.db" "$count_insert")"
    printf '%-34s %9s M  %9s M\n' "status$label" \
        "$(instructions $state "$work/journal-nodebug" --db "$work/count.db" status)" \
        "$(instructions $state sqlite3 "$work/count.db" "$count_status")"
    printf '%-34s %9s M  %9s M\n' "list --limit 20$label" \
        "$(instructions $state "$work/journal-nodebug" --db "$work/count.db" list --limit 20)" \
        "$(instructions $state sqlite3 "$work/count.db" "$count_list")"
done

# Sync: the first sync of 100,000 drinks from device A through a folder hub to device B.
echo
sync_home() { env HOME="$work/$1" XDG_DATA_HOME="$work/$1/data" XDG_CONFIG_HOME="$work/$1/config" "$journal" "${@:2}"; }
mkdir -p "$work/hub"
sync_home a path >/dev/null
sync_home a status >/dev/null
a_db="$work/a/data/journal/journal.db"
a_device=$(sqlite3 "$a_db" "SELECT value FROM meta WHERE key = 'device_id'")
sqlite3 "$a_db" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
    INSERT INTO drinks (id, kind, caffeine_mg, consumed_at, note, deleted, hlc, origin, seq)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
               || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
           'espresso', 64, $now_ms - i * 900000, CASE WHEN i % 10 = 0 THEN 'note ' || i END, 0,
           ($now_ms - i * 900000) << 16, '$a_device', i
    FROM n"
sync_home a sync init --folder "$work/hub" >/dev/null
sync_home a sync key | sync_home b sync init --folder "$work/hub" --key-file - >/dev/null
start=$EPOCHREALTIME
sync_home a sync >/dev/null
published=$EPOCHREALTIME
sync_home b sync >/dev/null
received=$EPOCHREALTIME
count=$(sqlite3 "$work/b/data/journal/journal.db" "SELECT count(*) FROM history")
first_sync=$(echo "$received - $start" | bc -l)
printf '%-34s %9.2f s  (publish %.2f s, apply %.2f s; %s drinks arrived)  (budget 10 s) %s\n' \
    "first sync of 100k drinks A->hub->B" "$first_sync" "$(echo "$published - $start" | bc -l)" \
    "$(echo "$received - $published" | bc -l)" "$count" \
    "$(judge "$first_sync <= 10 && $count == 100000")"
: >"$work/noop"
for ((i = 0; i < runs; i++)); do time_into "$work/noop" env HOME="$work/b" XDG_DATA_HOME="$work/b/data" XDG_CONFIG_HOME="$work/b/config" "$journal" sync; done
printf '%-34s %9s ms  (median; nothing changed, nothing written to the hub)\n' "journal sync, nothing to do" "$(median_ms "$work/noop")"

# Instructions of syncs as a daemon makes them: B receiving one drink (one segment, whose signature it
# checks against A's card) and B with nothing to do (each sync reads and verifies every card). The sync
# program without its DWARF, under the name it answers to.
strip -g -o "$work/journal-sync" "$bin/journal-syncd"
sync_instructions() {
    env HOME="$work/b" XDG_DATA_HOME="$work/b/data" XDG_CONFIG_HOME="$work/b/config" \
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/journal-sync" sync 2>&1 >/dev/null |
        awk '/Collected/ { printf "%.1f", $4 / 1e6 }'
}
sync_home a add espresso --note "counted" >/dev/null
sync_home a sync >/dev/null
printf '%-34s %9s M  (millions of instructions)\n' "sync receiving one drink" "$(sync_instructions)"
printf '%-34s %9s M\n' "sync, nothing to do" "$(sync_instructions)"
# What junk on the hub costs a sync (issue 31): 1,000 card files anyone who can write the folder can put
# there, each read once and remembered (the first sync), then only listed (every later one).
for ((i = 0; i < 1000; i++)); do
    printf 'junk' >"$work/hub/journal-hub-v1/cards/$(printf '00000000-0000-4000-8000-%012x' "$i").card"
done
printf '%-34s %9s M  (each read once, said once)\n' "sync, 1,000 junk cards new" "$(sync_instructions)"
printf '%-34s %9s M  (listed, not read again)\n' "sync, 1,000 junk cards known" "$(sync_instructions)"
rm -f "$work"/hub/journal-hub-v1/cards/00000000-0000-4000-8000-*.card

# A key rotation on a hub of 20 devices (each with a card, none with drinks): the new key wrapped
# (HPKE) for each, signed; then one device taking it up at its next sync.
mkdir -p "$work/hub20"
sync_home r0 sync init --folder "$work/hub20" >/dev/null
for ((i = 1; i < 20; i++)); do
    sync_home r0 sync key | sync_home "r$i" sync init --folder "$work/hub20" --key-file - >/dev/null
    sync_home "r$i" sync >/dev/null
done
sync_home r0 sync >/dev/null
sync_home r1 sync >/dev/null
rotation=$(env HOME="$work/r0" XDG_DATA_HOME="$work/r0/data" XDG_CONFIG_HOME="$work/r0/config" \
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/journal-sync" sync rotate-key 2>&1 >/dev/null |
    awk '/Collected/ { printf "%.1f", $4 / 1e6 }')
taken=$(env HOME="$work/r1" XDG_DATA_HOME="$work/r1/data" XDG_CONFIG_HOME="$work/r1/config" \
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/journal-sync" sync 2>&1 >/dev/null |
    awk '/Collected/ { printf "%.1f", $4 / 1e6 }')
printf '%-34s %9s M  (a key wrapped for 20 devices)\n' "sync rotate-key, 20 devices" "$rotation"
printf '%-34s %9s M  (one device taking the new key up)\n' "sync after a rotation" "$taken"
# The same syncs counted inside a running daemon, without a process's start-up.
BIN="$bin" bash "$(dirname "$0")/daemon-syncs.sh" || failed_part daemon-syncs.sh $?

# The daemons: from `journal add` on A to the drink on B, with journal-syncd running for both.
echo
daemon="$bin/journal-syncd"
b_db="$work/b/data/journal/journal.db"
env HOME="$work/a" XDG_DATA_HOME="$work/a/data" XDG_CONFIG_HOME="$work/a/config" "$daemon" 2>"$work/a.log" &
daemon_a=$!
env HOME="$work/b" XDG_DATA_HOME="$work/b/data" XDG_CONFIG_HOME="$work/b/config" "$daemon" 2>"$work/b.log" &
daemon_b=$!
# `|| true`: under `set -e` a kill of daemons already stopped ended the trap there, the work folder
# left behind and `make bench` failed with every budget held.
trap 'kill $daemon_a $daemon_b 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 2
: >"$work/latency"
for ((i = 0; i < runs; i++)); do
    start=$EPOCHREALTIME
    sync_home a add espresso --note "latency $i" >/dev/null
    arrival "$b_db" "SELECT count(*) FROM drinks WHERE note = 'latency $i'" "$start" 10 >>"$work/latency"
done
latency=$(median_ms "$work/latency")
printf '%-34s %9s ms  (median of %s; budget 250 ms) %s\n' "add on A -> visible on B (daemons)" "$latency" "$runs" \
    "$(judge "$latency <= 250")"

# An idle daemon: CPU time, wake-ups (context switches of each of its threads) and memory over 10
# seconds, after its thread pool has settled (idle worker threads exit after a few seconds) and past
# its quiet time after the last sync (`LoopPolicy.quietAfter`, 10 s), when it lets go of its code pages.
sleep 12
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# One line per thread: its id and its context switches so far.
switches() { for task in /proc/"$1"/task/*; do echo "${task##*/} $(awk '/ctxt_switches/ { n += $2 } END { print n }' "$task/status")"; done; }
ticks_before=$(cpu_ticks "$daemon_b"); switches "$daemon_b" >"$work/switches-before"
sleep 10
ticks_after=$(cpu_ticks "$daemon_b"); switches "$daemon_b" >"$work/switches-after"
rss_kib=$(awk '/VmRSS/ { print $2 }' "/proc/$daemon_b/status")
wakeups=$(join "$work/switches-before" "$work/switches-after" | awk '{ n += $3 - $2 } END { print n + 0 }')
cpu_ms=$(( (ticks_after - ticks_before) * 1000 / $(getconf CLK_TCK) ))
printf '%-34s %9s    (10 s idle: %s ms of CPU, %s wake-ups; budget none but the ticker, 20 MiB) %s\n' \
    "idle daemon resident memory" "$((rss_kib / 1024)) MiB" "$cpu_ms" "$wakeups" \
    "$(judge "$wakeups <= 2 && $rss_kib <= 20 * 1024")"

# A month of adds with both daemons running, each add its own sync: A's log on the hub grows by a few
# files (it is compacted: full segments and about log2 of the rest), and B has every drink.
hub_files() { find "$work/hub/journal-hub-v1/devices/$a_device" -type f ! -name '.*' | wc -l; }
files_before=$(hub_files)
for ((i = 0; i < 3000; i++)); do sync_home a add espresso --note "month $i" >/dev/null; done
start=$EPOCHREALTIME
until [ "$(sqlite3 "$b_db" "SELECT count(*) FROM drinks WHERE note LIKE 'month %'" 2>/dev/null)" = 3000 ]; do
    if (( $(echo "$EPOCHREALTIME - $start > 60" | bc -l) )); then break; fi
    sleep 0.1
done
files_after=$(hub_files)
arrived=$(sqlite3 "$b_db" "SELECT count(*) FROM drinks WHERE note LIKE 'month %'")
printf '%-34s %9s    (A'"'"'s log of 100,000 drinks: %s files; after 3,000 adds one at a time, daemons running; %s arrived on B) %s\n' \
    "hub files of one device" "$files_after" "$files_before" "$arrived" \
    "$(judge "$arrived == 3000 && $files_after - $files_before <= 16" 'TOO MANY')"
kill -TERM $daemon_a $daemon_b
wait $daemon_a $daemon_b 2>/dev/null || true
trap 'rm -rf "$work"' EXIT

# Apple Health: an export of five million records of mixed kinds, three million of them caffeine samples
# (each with its sync identifier), zipped as the Health app shares it, with its DTD: records per second,
# and the importer's peak memory against its budget, which holds whatever the export's size.
echo
health="$work/health"
health_records=5000000
health_budget_mib=64
mkdir -p "$health/apple_health_export"
awk -v records=$health_records 'BEGIN {
    print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    print "<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me,(Record|Workout)*)>"
    print "<!ATTLIST Record\n  type CDATA #REQUIRED\n  unit CDATA #IMPLIED\n  value CDATA #IMPLIED\n  sourceName CDATA #REQUIRED\n>\n]>"
    print "<HealthData locale=\"en_US\">"
    split("HKQuantityTypeIdentifierStepCount HKQuantityTypeIdentifierHeartRate HKQuantityTypeIdentifierActiveEnergyBurned", kinds, " ")
    split("64 128 96 144 47 28", amounts, " ")
    for (i = 0; i < records; i++) {
        t = 1400000000 + i * 60
        date = strftime("%Y-%m-%d %H:%M:%S +0000", t, 1)
        if (i % 5 < 3) {
            printf " <Record type=\"HKQuantityTypeIdentifierDietaryCaffeine\" sourceName=\"Coffee Tracker\" unit=\"mg\" creationDate=\"%s\" startDate=\"%s\" endDate=\"%s\" value=\"%s\">\n  <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"bench-%d\"/>\n </Record>\n", date, date, date, amounts[i % 6 + 1], i
        } else {
            printf " <Record type=\"%s\" sourceName=\"Apple Watch\" unit=\"count\" creationDate=\"%s\" startDate=\"%s\" endDate=\"%s\" value=\"%d\"/>\n", kinds[i % 3 + 1], date, date, date, i % 150
        }
    }
    print "</HealthData>"
}' >"$health/apple_health_export/export.xml"
xml_mb=$(( $(stat -c %s "$health/apple_health_export/export.xml") / 1000000 ))
(cd "$health" && zip -q -r export.zip apple_health_export && rm apple_health_export/export.xml)
start=$EPOCHREALTIME
/usr/bin/time -f '%M' -o "$health/peak" env HOME="$health/home" XDG_DATA_HOME="$health/data" "$journal" import --from apple-health "$health/export.zip" >"$health/out"
took=$(echo "$EPOCHREALTIME - $start" | bc -l)
peak_mib=$(( $(tail -1 "$health/peak") / 1024 ))
# Every caffeine sample a drink, once: a budget met by importing less would be no budget.
health_drinks=$(sqlite3 "$health/data/journal/journal.db" "SELECT count(*) FROM drinks")
if (( health_drinks != health_records * 3 / 5 )); then verdict="WRONG COUNT"; failures=$((failures + 1))
elif (( peak_mib > health_budget_mib )); then verdict="OVER BUDGET"; failures=$((failures + 1))
else verdict=ok; fi
printf '%-34s %9.0f /s (5,000,000 records, 3,000,000 of caffeine, %s MB of XML, zipped: %.1f s; %s)\n' \
    "Apple Health import" "$(echo "$health_records / $took" | bc -l)" "$xml_mb" "$took" "$(cut -c1-60 "$health/out")"
printf '%-34s %9s MiB  (budget %s MiB; %s drinks imported of %s samples) %s\n' "Apple Health import, peak memory" "$peak_mib" "$health_budget_mib" \
    "$health_drinks" "$((health_records * 3 / 5))" "$verdict"

# The PostgreSQL hub, against a server of the benchmark's own.
echo
BIN="$bin" RUNS="$runs" WORK="$work" bash "$(dirname "$0")/postgres.sh" || failed_part postgres.sh $?

# The WebDAV hub, against an nginx of the benchmark's own (ends with 11 minutes of a quiet hub).
echo
BIN="$bin" RUNS="$runs" WORK="$work" bash "$(dirname "$0")/webdav.sh" || failed_part webdav.sh $?

# The S3 hub, against a moto server of the benchmark's own (ends with 15 minutes of a quiet hub).
echo
BIN="$bin" RUNS="$runs" WORK="$work" bash "$(dirname "$0")/s3.sh" || failed_part s3.sh $?

failures=$((failures + $(wc -l <"$work/misses")))
if ((failures > 0)); then echo "make bench: $failures failure(s); verdicts written: $(tr '\n' ' ' <"$work/misses")" >&2; fi
exit $((failures > 0 ? 1 : 0))
