# Sourced by webdav.sh and s3.sh, the polled hubs' benchmarks, once `journal`, `daemon`, `work` and
# `runs` are set and `work` made: their two machines and daemons, the server's and the daemons' end
# however the benchmark ends, the verdicts, and the latency from `journal add` on A to the drink on B.
. "$(dirname "${BASH_SOURCE[0]}")/arrival.sh"

# The benchmark's server (its pid in `server`) and daemons, stopped however the benchmark ends.
server=""
daemons=()
stop_all() {
    if [ ${#daemons[@]} -gt 0 ]; then kill -TERM "${daemons[@]}" 2>/dev/null || true; fi
    if [ -n "$server" ]; then kill -TERM "$server" 2>/dev/null || true; fi
    wait 2>/dev/null || true
}
trap stop_all EXIT

# `home NAME COMMAND...`: COMMAND as machine NAME (a or b), its login in its own files, where a
# daemon finds it.
home() {
    local name=$1; shift
    env HOME="$work/$name" XDG_DATA_HOME="$work/$name/data" XDG_CONFIG_HOME="$work/$name/config" "$@"
}
b_db="$work/b/data/journal/journal.db"

# `two_machines HUB`: A makes the hub, B joins it with A's key, and both daemons run; returns once B
# looks at the hub.
two_machines() {
    home a "$journal" sync init --hub "$1" >/dev/null
    home a "$journal" sync key | home b "$journal" sync init --hub "$1" --key-file - >/dev/null
    home a "$daemon" 2>"$work/a.log" &
    daemons+=($!)
    home b "$daemon" 2>"$work/b.log" &
    daemons+=($!)
    until grep -q "looking at the hub" "$work/b.log" 2>/dev/null; do sleep 0.05; done
}

median_ms() { sort -n "$1" | awk '{ v[NR] = $1 } END { printf "%.0f", v[int((NR + 1) / 2)] * 1000 }'; }
max_ms() { sort -n "$1" | tail -1 | awk '{ printf "%.0f", $1 * 1000 }'; }
: >"$work/misses"
judge() { if (( $(echo "$1" | bc -l) )); then echo ok; else echo 'OVER BUDGET' | tee -a "$work/misses"; fi; }

# `polled_latency LABEL`: `runs` drinks added on A, each timed until B has it; the median and the
# slowest, against the budget of 10 s (B looks every 5 s while the hub is active).
polled_latency() {
    : >"$work/latency"
    for ((i = 0; i < runs; i++)); do
        local start=$EPOCHREALTIME
        home a "$journal" add espresso --note "latency $i" >/dev/null
        arrival "$b_db" "SELECT count(*) FROM drinks WHERE note = 'latency $i'" "$start" 20 >>"$work/latency"
    done
    local median worst
    median=$(median_ms "$work/latency") worst=$(max_ms "$work/latency")
    printf '%-34s %9s ms  (median of %s, the slowest %s ms; budget 10000 ms for the slowest: B looks every 5 s) %s\n' \
        "$1" "$median" "$runs" "$worst" "$(judge "$worst <= 10000")"
}
