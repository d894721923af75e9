#!/usr/bin/env bash
# make bench, the PostgreSQL hub: a server of the benchmark's own (Debian's postgresql, in a temporary
# folder, loopback and a Unix socket, TLS on, statements logged with their durations), and its figures:
# the first sync of 100,000 drinks; a sync with nothing to do (round trips counted in the server's log);
# the latency from `journal add` on A to the drink on B with both daemons running; catch-up after an
# outage; the first sync over 1,000,000 junk rows; 20 devices publishing
# 1,000 changes each at once; a daemon's sync with nothing to do on 1,000,000 rows; 50 daemons on one hub
# (connections, idle cost, add-to-visible). Called by bench.sh with BIN, RUNS and WORK set; exits
# non-zero when a budget is missed.
set -euo pipefail
. "$(dirname "$0")/arrival.sh"
. "$(dirname "$0")/failed-part.sh"

journal="$BIN/journal" daemon="$BIN/journal-syncd" runs=$RUNS work=$WORK/pg
failures=0
mkdir -p "$work"
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
port=$(( 20000 + RANDOM % 20000 ))
as_server=()
if [ "$(id -u)" = 0 ]; then as_server=(setpriv --reuid=postgres --regid=postgres --init-groups); fi

# The server: a certificate for localhost, initdb, and a watcher that stops it when this script ends.
(
    cd "$work"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=bench authority' -keyout ca.key -out ca.crt 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj '/CN=localhost' -keyout server.key -out server.csr 2>/dev/null
    printf 'subjectAltName=DNS:localhost\n' >san.ext
    openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.crt 2>/dev/null
    chmod 600 server.key
)
mkdir -p "$work/data"
[ "$(id -u)" = 0 ] && chown -R postgres:postgres "$work" && chmod 755 "$WORK"
"${as_server[@]}" "$pgbin/initdb" -D "$work/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 --no-sync >/dev/null
cat >>"$work/data/postgresql.conf" <<EOF
listen_addresses = 'localhost'
port = $port
unix_socket_directories = '$work'
ssl = on
ssl_cert_file = '$work/server.crt'
ssl_key_file = '$work/server.key'
max_connections = 100
log_statement = 'all'
log_duration = on
logging_collector = off
EOF
"${as_server[@]}" "$pgbin/pg_ctl" -D "$work/data" -l "$work/server.log" -w start >/dev/null
daemons=()
stop_all() {
    # Each step `|| true`: under `set -e` a failed kill (a daemon already gone) would end the trap
    # before the server is stopped.
    if [ ${#daemons[@]} -gt 0 ]; then kill -TERM "${daemons[@]}" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    "${as_server[@]}" "$pgbin/pg_ctl" -D "$work/data" -m fast stop >/dev/null 2>&1 || true
}
trap stop_all EXIT
psql -qh "$work" -p "$port" -U postgres -c "CREATE ROLE bench LOGIN PASSWORD 'bench'" -c "CREATE DATABASE bench OWNER bench" >/dev/null
printf 'localhost:%s:*:bench:bench\n' "$port" >"$work/pgpass"
chmod 600 "$work/pgpass"
[ "$(id -u)" = 0 ] && chown root "$work/pgpass"
uri="postgresql://bench@localhost:$port/bench?sslmode=verify-full&sslrootcert=$work/ca.crt&passfile=$work/pgpass"

at() { env HOME="$work/$1" XDG_DATA_HOME="$work/$1/data" XDG_CONFIG_HOME="$work/$1/config" "${@:2}"; }
seconds_since() { echo "$EPOCHREALTIME - $1" | bc -l; }
# ok when the bc condition holds, else OVER BUDGET, also written to a file the exit status counts: a
# verdict is printed from a command substitution, a subshell whose variables die with it.
: >"$work/misses"
verdict() { if (( $(echo "$1" | bc -l) )); then echo ok; else echo 'OVER BUDGET' | tee -a "$work/misses"; fi; }
now_ms=$(($(date +%s) * 1000))

# First sync of 100,000 drinks, A -> server -> B.
at a "$journal" status >/dev/null
a_db="$work/a/data/journal/journal.db"
a_device=$(sqlite3 "$a_db" "SELECT value FROM meta WHERE key = 'device_id'")
sqlite3 "$a_db" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
    INSERT INTO drinks (id, kind, caffeine_mg, consumed_at, note, deleted, hlc, origin, seq)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
               || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
           'espresso', 64, $now_ms - i * 900000, CASE WHEN i % 10 = 0 THEN 'note ' || i END, 0,
           ($now_ms - i * 900000) << 16, '$a_device', i
    FROM n"
at a "$journal" sync init --postgres "$uri" >/dev/null
at a "$journal" sync key | at b "$journal" sync init --postgres "$uri" --key-file - >/dev/null
start=$EPOCHREALTIME
at a "$journal" sync >/dev/null
published=$EPOCHREALTIME
at b "$journal" sync >/dev/null
first=$(seconds_since "$start")
count=$(sqlite3 "$work/b/data/journal/journal.db" "SELECT count(*) FROM history")
printf '%-34s %9.2f s  (publish %.2f s, apply %.2f s; %s drinks arrived)  (budget 4 s) %s\n' \
    "first sync of 100k A->server->B" "$first" "$(echo "$published - $start" | bc -l)" "$(seconds_since "$published")" "$count" \
    "$(verdict "$first <= 4 && $count == 100000")"

# A sync with nothing to do: the CLI's wall time (a connection with TLS and a password each run), and
# what the daemon, whose connection stays open, sends the server for one.
: >"$work/noop"
for ((i = 0; i < runs; i++)); do
    start=$EPOCHREALTIME; at b "$journal" sync >/dev/null; seconds_since "$start" >>"$work/noop"
done
printf '%-34s %9s ms  (median; a connection, TLS and authentication each time)\n' "journal sync, nothing to do" \
    "$(sort -g "$work/noop" | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] * 1000 }')"

# Started directly (not through `at`, whose subshell would take the signals meant for the daemon).
for m in a b; do
    env HOME="$work/$m" XDG_DATA_HOME="$work/$m/data" XDG_CONFIG_HOME="$work/$m/config" "$daemon" --interval 1h 2>"$work/$m.log" &
    daemons+=($!)
done
sleep 3
# Each daemon's first sync may change its card (A vouches for B once it sees B's), which B then reads:
# a sync of B before the one measured takes that in, so that the one measured has nothing to do.
kill -USR1 "${daemons[1]}"
sleep 1
lines=$(wc -l <"$work/server.log")
kill -USR1 "${daemons[1]}"
sleep 1
tail -n +"$((lines + 1))" "$work/server.log" >"$work/noop.log"
statements=$(grep -c 'LOG:  execute' "$work/noop.log" || true)
duration=$(grep -o 'duration: [0-9.]* ms' "$work/noop.log" | awk '{ s += $2 } END { printf "%.2f", s }')
printf '%-34s %9s    (statements the server ran for a daemon sync with nothing to do; %s ms in the server; budget 1) %s\n' \
    "daemon sync, nothing to do" "$statements" "$duration" "$(verdict "$statements == 1")"

# Latency: `journal add` on A until the drink is in B's journal, both daemons running.
b_db="$work/b/data/journal/journal.db"
: >"$work/latency"
for ((i = 0; i < runs; i++)); do
    start=$EPOCHREALTIME
    at a "$journal" add espresso --note "latency $i" >/dev/null
    arrival "$b_db" "SELECT count(*) FROM drinks WHERE note = 'latency $i'" "$start" 10 >>"$work/latency"
done
latency=$(sort -g "$work/latency" | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] * 1000 }')
printf '%-34s %9s ms  (median of %s; budget 100 ms) %s\n' "add on A -> on B through the server" "$latency" "$runs" \
    "$(verdict "$latency <= 100")"

# Catch-up after an outage: the server down until both daemons' retries are a minute or more away, a
# drink added on A meanwhile, then the time from the server taking connections again to the drink in
# B's journal: the doorbells listening again bring it, not a retry.
"${as_server[@]}" "$pgbin/pg_ctl" -D "$work/data" -m fast stop >/dev/null
for m in 0 1; do
    log="$work/$([ $m = 0 ] && echo a || echo b).log"
    for ((i = 0; i < 12; i++)); do
        failed=$(grep -c 'sync failed' "$log" || true)
        kill -USR1 "${daemons[$m]}"
        for ((w = 0; w < 600; w++)); do [ "$(grep -c 'sync failed' "$log" || true)" -gt "$failed" ] && break; sleep 0.05; done
        grep 'sync failed' "$log" | tail -1 | grep -qE 'Retrying in [0-9]+ min' && break
    done
done
at a "$journal" add espresso --note "made in the outage" >/dev/null
"${as_server[@]}" "$pgbin/pg_ctl" -D "$work/data" -l "$work/server.log" -w start >/dev/null
start=$EPOCHREALTIME
until [ "$(sqlite3 "$b_db" "SELECT count(*) FROM drinks WHERE note = 'made in the outage'" 2>/dev/null)" = 1 ]; do
    if (( $(echo "$EPOCHREALTIME - $start > 60" | bc -l) )); then break; fi
    sleep 0.01
done
caught_up=$(seconds_since "$start")
printf '%-34s %9.2f s  (the server back, retries a minute or more away; budget 2 s) %s\n' "catch-up after an outage" "$caught_up" \
    "$(verdict "$caught_up <= 2")"
kill -TERM "${daemons[@]}"; wait "${daemons[@]}" 2>/dev/null || true; daemons=()

# 20 devices, each publishing 1,000 changes at once; then each pulls the others' and all agree.
psql -qh "$work" -p "$port" -U postgres -c "CREATE DATABASE many OWNER bench" >/dev/null
many="postgresql://bench@localhost:$port/many?sslmode=verify-full&sslrootcert=$work/ca.crt&passfile=$work/pgpass"
at d0 "$journal" sync init --postgres "$many" >/dev/null
key=$(at d0 "$journal" sync key)
for d in $(seq 0 19); do
    [ "$d" = 0 ] || echo "$key" | at "d$d" "$journal" sync init --postgres "$many" --key-file - >/dev/null
    db="$work/d$d/data/journal/journal.db"
    device=$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'device_id'")
    sqlite3 "$db" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
        INSERT INTO drinks (id, kind, caffeine_mg, consumed_at, note, deleted, hlc, origin, seq)
        SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                   || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
               'espresso', 64, $now_ms - i * 60000, 'device $d', 0, ($now_ms - i * 60000) << 16, '$device', i
        FROM n"
done
start=$EPOCHREALTIME
for d in $(seq 0 19); do at "d$d" "$journal" sync >/dev/null & done
wait
took=$(seconds_since "$start")
for d in $(seq 0 19); do at "d$d" "$journal" sync >/dev/null & done
wait
agree=$(for d in $(seq 0 19); do sqlite3 "$work/d$d/data/journal/journal.db" "SELECT count(DISTINCT id) FROM history"; done | sort -u | tr '\n' ' ')
printf '%-34s %9.0f /s (20,000 changes published by 20 devices at once in %.2f s; every journal then holds: %s) %s\n' \
    "server intake, 20 devices" "$(echo "20000 / $took" | bc -l)" "$took" "$agree" "$(verdict "$(echo "$agree" | tr -d ' ') == 20000")"

# A sync with nothing to do on a hub of 1,000,000 rows: 50 devices of 20,000 rows each (rows no member
# wrote: the first sync reads them once and passes them over), then what the daemon sends the server
# for a sync, by the table's index past each device's position.
psql -qh "$work" -p "$port" -U postgres -d bench -c "INSERT INTO journal_hub.segments (device, first_position, last_position, bytes)
    SELECT d.id, n, n, '\\x00'::bytea FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, 50)) d, generate_series(1, 20000) AS n" >/dev/null
psql -qh "$work" -p "$port" -U postgres -d bench -c "ANALYZE journal_hub.segments" >/dev/null
rows=$(psql -qAth "$work" -p "$port" -U postgres -d bench -c "SELECT count(*) FROM journal_hub.segments")
# The first sync after the junk came reads it once, says so once, and exits 0; the next has nothing to do.
start=$EPOCHREALTIME
junk_status=0; at b "$journal" sync >"$work/junk.out" 2>&1 || junk_status=$?
junk_took=$(seconds_since "$start")
at b "$journal" sync >"$work/junk-again.out" 2>&1 || true
said=$(grep -c 'Passed over' "$work/junk.out" || true)
printf '%-34s %9.2f s  (1,000,000 rows under 50 devices no member admitted: read once, said once (%s); exit %s; then "%s")  %s\n' \
    "first sync over 1,000,000 junk rows" "$junk_took" "$said" "$junk_status" "$(cut -c1-40 "$work/junk-again.out")" \
    "$(verdict "$junk_status == 0 && $said == 1 && $(grep -c '^Nothing to sync' "$work/junk-again.out" || true) == 1")"
env HOME="$work/b" XDG_DATA_HOME="$work/b/data" XDG_CONFIG_HOME="$work/b/config" "$daemon" --interval 1h 2>"$work/b.log" &
daemons+=($!)
sleep 3
lines=$(wc -l <"$work/server.log")
kill -USR1 "${daemons[0]}"
sleep 1
tail -n +"$((lines + 1))" "$work/server.log" >"$work/noop-large.log"
statements=$(grep -c 'LOG:  execute' "$work/noop-large.log" || true)
duration=$(grep -o 'duration: [0-9.]* ms' "$work/noop-large.log" | awk '{ s += $2 } END { printf "%.2f", s }')
printf '%-34s %9s ms (in the server, %s statement(s), a hub of %s rows; budget 2 ms, 1 statement) %s\n' \
    "daemon sync on 1,000,000 rows" "$duration" "$statements" "$rows" "$(verdict "$duration <= 2 && $statements == 1")"
kill -TERM "${daemons[@]}"; wait "${daemons[@]}" 2>/dev/null || true; daemons=()

# What a daemon's syncs cost inside it on this hub (daemon-syncs.sh), on a database of their own.
psql -qh "$work" -p "$port" -U postgres -c "CREATE DATABASE rings OWNER bench" >/dev/null
HUB="postgresql://bench@localhost:$port/rings?sslmode=verify-full&sslrootcert=$work/ca.crt&passfile=$work/pgpass" \
    HUB_NAME="PostgreSQL hub" bash "$(dirname "$0")/daemon-syncs.sh" || failed_part daemon-syncs.sh $?

# 50 machines on one hub, each with its daemon: the connections they hold, what they cost idle, and how
# long a drink added on one takes to be in another's journal while all 50 listen.
psql -qh "$work" -p "$port" -U postgres -c "CREATE DATABASE fifty OWNER bench" >/dev/null
fifty="postgresql://bench@localhost:$port/fifty?sslmode=verify-full&sslrootcert=$work/ca.crt&passfile=$work/pgpass"
at f0 "$journal" sync init --postgres "$fifty" >/dev/null
key=$(at f0 "$journal" sync key)
for d in $(seq 1 49); do echo "$key" | at "f$d" "$journal" sync init --postgres "$fifty" --key-file - >/dev/null & done
wait
for d in $(seq 0 49); do
    env HOME="$work/f$d" XDG_DATA_HOME="$work/f$d/data" XDG_CONFIG_HOME="$work/f$d/config" "$daemon" --interval 1h 2>"$work/f$d.log" &
    daemons+=($!)
done
connections() { psql -qAth "$work" -p "$port" -U postgres -c "SELECT count(*) FROM pg_stat_activity WHERE datname = 'fifty'"; }
# Settled: every daemon listening (its first line says so) and its test ring's connection gone.
for ((i = 0; i < 600; i++)); do
    listening=$( (grep -l 'listening to the hub' "$work"/f*.log 2>/dev/null || true) | wc -l)
    [ "$listening" = 50 ] && [ "$(connections)" = 50 ] && break
    sleep 0.1
done
held=$(connections)
# Past the daemons' quiet time after their start-up syncs (`LoopPolicy.quietAfter`, 10 s), when they
# let go of their code pages: idle from then on.
sleep 11
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
before=0; for pid in "${daemons[@]}"; do before=$((before + $(cpu_ticks "$pid"))); done
sleep 10
after=0; for pid in "${daemons[@]}"; do after=$((after + $(cpu_ticks "$pid"))); done
printf '%-34s %9s    (%s connections for 50 daemons, all listening; budget 1) %s\n' \
    "connections per daemon" "$(echo "scale=2; $held / 50" | bc -l)" "$held" "$(verdict "$held == 50")"
printf '%-34s %9s    (CPU ticks of all 50 daemons in 10 s idle; budget 0) %s\n' \
    "50 idle daemons" "$((after - before))" "$(verdict "$after - $before == 0")"
# A drink added on f0 until it is in every other journal: each of the 49 daemons is rung, and what
# they spend on it together is the time the last has it (2 cores for 49 syncs). The CPU each spends
# per ring is read from the kernel's count of their user and system time (10 ms ticks), summed over
# the 49 and every run.
others=(); for d in $(seq 1 49); do others+=("$work/f$d/data/journal/journal.db"); done
: >"$work/latency50"
ring_runs=$((runs * 2))
ticks_before=0; for pid in "${daemons[@]:1}"; do ticks_before=$((ticks_before + $(cpu_ticks "$pid"))); done
# One watcher of the 49 journals for every add, started before the first (arrivals.py says why). A
# watcher that died ends the script through its failed read or write (EPIPE, not a SIGPIPE that would
# skip the trap stopping the daemons and the server); one that hangs, after 30 s.
trap '' PIPE
coproc ARRIVALS { python3 "$(dirname "$0")/arrivals.py" 10 "SELECT count(*) FROM drinks WHERE note = ?" "${others[@]}"; }
read -r _ <&"${ARRIVALS[0]}"
for ((i = 0; i < ring_runs; i++)); do
    start=$EPOCHREALTIME
    at f0 "$journal" add espresso --note "fifty $i" >/dev/null
    echo "$start fifty $i" >&"${ARRIVALS[1]}"
    read -r -t 30 seen <&"${ARRIVALS[0]}"
    echo "$seen" >>"$work/latency50"
done
arrivals_pid=$ARRIVALS_PID
eval "exec ${ARRIVALS[1]}>&-"
wait "$arrivals_pid" 2>/dev/null || true
trap - PIPE
# The last daemon to have the drink still records its sync's outcome: its CPU belongs to the ring.
sleep 1
ticks_after=0; for pid in "${daemons[@]:1}"; do ticks_after=$((ticks_after + $(cpu_ticks "$pid"))); done
median_column() { cut -d' ' -f"$1" "$work/latency50" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] * 1000 }'; }
first_seen=$(median_column 1)
all_seen=$(median_column 2)
per_ring=$(echo "scale=2; ($ticks_after - $ticks_before) * 1000 / $(getconf CLK_TCK) / (49 * $ring_runs)" | bc -l)
printf '%-34s %9s ms  (median of %s, 50 daemons listening; the first of 49 had it in %s ms; budget 60 ms) %s\n' \
    "add on 1 -> on all others of 50" "$all_seen" "$ring_runs" "$first_seen" "$(verdict "$all_seen <= 60")"
printf '%-34s %9s ms  (user and system time of the 49 rung daemons over %s adds, per daemon and add; budget 1 ms) %s\n' \
    "daemon CPU per ring" "$per_ring" "$ring_runs" "$(verdict "$per_ring <= 1")"
# What an idle daemon holds after syncing: the 50 after their rings, once past their quiet time.
sleep 12
median_mib() { sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1024 }'; }
rss_mib=$(for pid in "${daemons[@]}"; do awk '/VmRSS/ { print $2 }' "/proc/$pid/status"; done | median_mib)
# Most of it is the binary's code, mapped from the file and shared by all 50: what each costs the
# machine alone is its anonymous memory, and its proportional share (PSS) of the rest.
anon_mib=$(for pid in "${daemons[@]}"; do awk '/RssAnon/ { print $2 }' "/proc/$pid/status"; done | median_mib)
pss_mib=$(for pid in "${daemons[@]}"; do awk '/^Pss:/ { print $2 }' "/proc/$pid/smaps_rollup"; done | median_mib)
printf '%-34s %9s MiB (median of 50, idle after their syncs; of it anonymous %s MiB; proportional share %s MiB; budget 20) %s\n' \
    "idle PostgreSQL daemon resident" "$rss_mib" "$anon_mib" "$pss_mib" "$(verdict "$rss_mib <= 20")"
kill -TERM "${daemons[@]}"; wait "${daemons[@]}" 2>/dev/null || true; daemons=()

failures=$((failures + $(wc -l <"$work/misses")))
exit $((failures > 0 ? 1 : 0))
