#!/bin/bash
# Makes an upgrade fixture: two journals and the hub they sync through, written by the journal built
# from an earlier commit, for UpgradeTests to open with today's. Run once per format change, from a
# checkout of that commit:
#   git worktree add /tmp/old COMMIT && (cd /tmp/old && swift build --product journal && swift build --product journal-syncd)
#   bash Tests/Fixtures/make-upgrade-fixture.sh /tmp/old/.build/debug Tests/Fixtures/upgrade-COMMIT
#   bash Tests/Fixtures/make-upgrade-fixture.sh /tmp/old/.build/debug Tests/Fixtures/upgrade-COMMIT-postgres --postgres
# Machine a and b each add, edit and delete; b defines a drink of its own; both sync twice, so each has
# published and applied; then a adds one more drink it has not published. Every clock is fixed.
# A folder hub is kept as it is; a PostgreSQL hub is made on a server of the script's own (trust on a
# Unix socket, stopped after) and kept as a dump of the schema journal_hub without owners or grants,
# for the test to restore as any role.
set -euo pipefail
bin=$1
out=$(realpath -m "$2")
kind=${3:---folder}
rm -rf "$out"
mkdir -p "$out"
if [ "$kind" = --postgres ]; then
    pg=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    server=$(mktemp -d)
    # PostgreSQL refuses to run as root: as root, the server runs as the postgres user.
    as_server=()
    if [ "$(id -u)" = 0 ]; then
        chown postgres:postgres "$server"
        as_server=(setpriv --reuid=postgres --regid=postgres --init-groups)
    fi
    trap '"${as_server[@]}" "$pg/pg_ctl" -D "$server/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$server"' EXIT
    "${as_server[@]}" "$pg/initdb" -D "$server/data" -U postgres --auth=trust >/dev/null
    "${as_server[@]}" "$pg/pg_ctl" -D "$server/data" -o "-k $server -c listen_addresses='' -p 54329" -w start >/dev/null
    psql -h "$server" -p 54329 -U postgres -qc "CREATE ROLE alice LOGIN" -c "CREATE DATABASE journal_alice OWNER alice"
    hub="postgresql://alice@/journal_alice?host=${server//\//%2F}&port=54329"
else
    hub="$out/hub"
    mkdir -p "$hub"
fi
machine() {
    local name=$1 now=$2
    shift 2
    env -i HOME="$out/$name" TZ=UTC LC_ALL=C.UTF-8 JOURNAL_NOW="$now" PATH=/usr/bin:/bin "$bin/journal" "$@"
}
machine a 2026-11-20T08:00:00Z add espresso --note "a's first"
machine a 2026-11-20T08:00:00Z sync init "$kind" "$hub" >/dev/null
machine a 2026-11-20T08:05:00Z add tea --note "a's tea, later deleted"
machine a 2026-11-20T08:06:00Z sync >/dev/null
machine a 2026-11-20T08:00:00Z sync key | machine b 2026-11-20T09:00:00Z sync init "$kind" "$hub" --key-file - >/dev/null
machine b 2026-11-20T09:00:00Z drinks add oat-latte --mg 130 >/dev/null
machine b 2026-11-20T09:01:00Z add oat-latte --note "b's own drink"
machine b 2026-11-20T09:02:00Z sync >/dev/null
tea=$(machine a 2026-11-20T10:00:00Z sql "select id from drinks where note like 'a''s tea%'" --format csv | tail -1 | tr -d '\r')
machine a 2026-11-20T10:00:00Z rm "$tea" >/dev/null
first=$(machine b 2026-11-20T10:30:00Z sql "select id from drinks where note = 'a''s first'" --format csv | tail -1 | tr -d '\r')
machine b 2026-11-20T10:30:00Z edit "$first" --note "a's first, edited on b" >/dev/null
for round in 1 2; do
    machine a 2026-11-20T11:0${round}:00Z sync >/dev/null
    machine b 2026-11-20T11:0${round}:30Z sync >/dev/null
done
machine a 2026-11-20T12:00:00Z add cola --note "a's, not published"
# What the fixture must hold, for the test to compare against.
machine a 2026-11-20T12:00:00Z sql "select id, drink, caffeine_mg, note from history order by id" --format csv > "$out/a-history.csv"
machine b 2026-11-20T12:00:00Z sql "select id, drink, caffeine_mg, note from history order by id" --format csv > "$out/b-history.csv"
# Checkpointed, so each journal is one file.
for name in a b; do sqlite3 "$out/$name/.local/share/journal/journal.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null; done
rm -f "$out"/*/.local/share/journal/*.sync-lock
if [ "$kind" = --postgres ]; then
    pg_dump -h "$server" -p 54329 -U postgres --no-owner --no-privileges --schema=journal_hub journal_alice > "$out/hub.sql"
fi
echo "made $out"
