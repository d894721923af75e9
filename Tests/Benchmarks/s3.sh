#!/usr/bin/env bash
# make bench, the S3 hub: a moto server of the benchmark's own (PyPI's moto[server], loopback, every
# request in its log), two machines with their daemons, and its figures, as webdav.sh's: the latency
# from `journal add` on A to the drink on B (B learns of it by listing the hub's heads); the requests a
# daemon makes while changes come (one listing every 5 s); and those of a quiet hub, over the 5 minutes
# from 10 minutes after the last change (one every 40 s). moto's log gives no sizes: requests alone.
# Called by bench.sh with BIN, RUNS and WORK set; exits non-zero when a budget is missed.
set -euo pipefail

journal="$BIN/journal" daemon="$BIN/journal-syncd" runs=$RUNS work=$WORK/s3
mkdir -p "$work"
moto=$(command -v moto_server || echo "$HOME/.local/bin/moto_server")
port=$(( 20000 + RANDOM % 20000 ))
. "$(dirname "$0")/polled-hub.sh"
"$moto" -H 127.0.0.1 -p "$port" 2>"$work/access.log" >/dev/null &
server=$!
until curl -s -o /dev/null "http://127.0.0.1:$port/"; do sleep 0.05; done
curl -s -o /dev/null -X PUT "http://127.0.0.1:$port/bench-hub"
# The key where a person keeps it for the daemon (README), not in the environment.
for machine in a b; do
    mkdir -p "$work/$machine/.aws"
    printf '[default]\naws_access_key_id = bench\naws_secret_access_key = bench-secret\n' >"$work/$machine/.aws/credentials"
    chmod 600 "$work/$machine/.aws/credentials"
done
two_machines "s3://bench-hub/journal?endpoint=http://127.0.0.1:$port"

requests() { grep -c 'HTTP/1.1"' "$work/access.log" || true; }
polled_latency "S3: add on A -> visible on B"

before=$(requests)
sleep 60
active=$(( ($(requests) - before) / 2 ))
printf '%-34s %9s /min (per daemon, within 10 minutes of a change; 12 expected) %s\n' "S3: requests, active hub" "$active" \
    "$(judge "$active <= 15")"

sleep 540
before=$(requests)
sleep 300
quiet=$(echo "scale=1; ($(requests) - $before) / 10" | bc -l)
printf '%-34s %9s /min (per daemon, over 5 minutes from 10 minutes after the last change; budget 2) %s\n' \
    "S3: requests, quiet hub" "$quiet" "$(judge "$quiet <= 2")"
exit $(( $(wc -l <"$work/misses") > 0 ? 1 : 0 ))
