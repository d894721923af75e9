#!/usr/bin/env bash
# make bench, the WebDAV hub: an nginx server of the benchmark's own (Debian's nginx with its DAV and
# dav-ext modules, loopback, every request logged with its size), two machines with their daemons, and
# its figures: the latency from `journal add` on A to the drink on B (B learns of it by polling); the
# requests a daemon makes while changes come (one PROPFIND every 5 s); and those of a quiet hub, over
# the 5 minutes from 10 minutes after the last change (one every 40 s; the daemons run with their
# default safety-net tick, 5 minutes, which on a polled hub costs no request), with their bytes, as a
# day of them costs. Called by
# bench.sh with BIN, RUNS and WORK set; exits non-zero when a budget is missed.
set -euo pipefail
. "$(dirname "$0")/failed-part.sh"

journal="$BIN/journal" daemon="$BIN/journal-syncd" runs=$RUNS work=$WORK/dav
failures=0
mkdir -p "$work/root" "$work/temp" "$work/run"
port=$(( 20000 + RANDOM % 20000 ))
htpasswd -cbm "$work/htpasswd" bench 'bench pass' 2>/dev/null
user_line=""
if [ "$(id -u)" = 0 ]; then user_line="user nobody nogroup;"; chown -R nobody:nogroup "$work/root" "$work/temp" "$work/run"; chmod 755 "$WORK" "$work"; chmod 644 "$work/htpasswd"; fi
cat >"$work/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;
pid $work/run/nginx.pid;
error_log stderr warn;
worker_processes 1;
$user_line
events { worker_connections 256; }
http {
  log_format sizes '\$request_method \$status \$request_length \$bytes_sent';
  access_log $work/access.log sizes;
  client_body_temp_path $work/temp/body;
  proxy_temp_path $work/temp/proxy;
  fastcgi_temp_path $work/temp/fastcgi;
  uwsgi_temp_path $work/temp/uwsgi;
  scgi_temp_path $work/temp/scgi;
  server {
    listen 127.0.0.1:$port;
    client_max_body_size 0;
    location / {
      root $work/root;
      auth_basic "bench";
      auth_basic_user_file $work/htpasswd;
      dav_methods PUT DELETE MKCOL COPY MOVE;
      dav_ext_methods PROPFIND OPTIONS;
      dav_access user:rw;
    }
  }
}
CONF
. "$(dirname "$0")/polled-hub.sh"
nginx -p "$work/" -c "$work/nginx.conf" -e stderr -g 'daemon off;' 2>"$work/nginx.log" &
server=$!
until curl -s -o /dev/null "http://127.0.0.1:$port/"; do sleep 0.05; done
mkdir -p "$work/root/hub"
[ "$(id -u)" = 0 ] && chown nobody:nogroup "$work/root/hub"
# The login where a person keeps it for the daemon (README), not in a file NETRC names.
for machine in a b; do
    mkdir -p "$work/$machine"
    printf 'machine 127.0.0.1 login bench password "bench pass"\n' >"$work/$machine/.netrc"
    chmod 600 "$work/$machine/.netrc"
done
two_machines "dav://bench@127.0.0.1:$port/hub"
polled_latency "WebDAV: add on A -> visible on B"

# Requests while active: a minute, counted in the server's log, per daemon.
lines=$(wc -l <"$work/access.log")
sleep 60
active=$(( ($(wc -l <"$work/access.log") - lines) / 2 ))
printf '%-34s %9s /min (per daemon, within 10 minutes of a change; 12 expected) %s\n' "WebDAV: requests, active hub" "$active" \
    "$(judge "$active <= 15")"

# A quiet hub: from 10 minutes after the last change, 5 minutes' requests and bytes, per daemon and minute.
sleep 540
lines=$(wc -l <"$work/access.log")
sleep 300
tail -n +"$((lines + 1))" "$work/access.log" >"$work/quiet.log"
quiet=$(echo "scale=1; $(wc -l <"$work/quiet.log") / 10" | bc -l)
bytes=$(awk '{ total += $3 + $4 } END { printf "%.0f", total / 10 }' "$work/quiet.log")
printf '%-34s %9s /min (per daemon, over 5 minutes from 10 minutes after the last change; budget 2; %s bytes a minute, %s MB a quiet day) %s\n' \
    "WebDAV: requests, quiet hub" "$quiet" "$bytes" "$(echo "scale=1; $bytes * 1440 / 1000000" | bc -l)" "$(judge "$quiet <= 2")"
failures=$((failures + $(wc -l <"$work/misses")))
exit $((failures > 0 ? 1 : 0))
