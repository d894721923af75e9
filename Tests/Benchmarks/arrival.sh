# Sourced by bench.sh and postgres.sh. `arrival DB SQL START LIMIT`: polls the journal DB until SQL
# answers 1, and prints the seconds since START ($EPOCHREALTIME), or LIMIT when it never does. The
# poll sleeps 5 ms between looks: a poll that never sleeps (a sqlite3 and a bc process after another)
# took one of this machine's two cores from the daemons whose latency it measured.
arrival() {
    local db=$1 sql=$2 start=$3 limit=$4 now
    while :; do
        now=$EPOCHREALTIME
        if [ "$(sqlite3 "$db" "$sql" 2>/dev/null)" = 1 ]; then break; fi
        if (( ${now/./} - ${start/./} > limit * 1000000 )); then echo "$limit"; return; fi
        sleep 0.005
    done
    echo "$now - $start" | bc -l
}
