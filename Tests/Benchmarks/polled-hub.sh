# Sourced by webdav.sh and s3.sh, the polled hubs' benchmarks, once their two machines' daemons run
# (with `home`, `journal`, `b_db`, `work` and `runs` set): the verdicts, and the latency from
# `journal add` on A to the drink on B.
. "$(dirname "${BASH_SOURCE[0]}")/arrival.sh"

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
