#!/usr/bin/env python3
# `arrivals.py START LIMIT SQL DB...`: polls every journal DB until SQL answers 1 in each, and prints
# the seconds from START (an $EPOCHREALTIME) to the first and to the last arrival, or LIMIT for one
# that never came. One process holding every file open: a sqlite3 process per look at 49 journals
# would take the cores from the daemons it measures, and a poll of one journal sees only when that
# one had it, not when all had.
import sqlite3
import sys
import time

start, limit, sql, paths = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4:]
pending = {path: sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) for path in paths}
arrivals = []
while pending:
    if time.time() - start > limit:
        arrivals += [limit] * len(pending)
        break
    for path, connection in list(pending.items()):
        try:
            # The time of this look, not of the round's start: a round over 49 files takes milliseconds.
            if connection.execute(sql).fetchone()[0] == 1:
                arrivals.append(time.time() - start)
                connection.close()
                del pending[path]
        except sqlite3.Error:
            pass
    time.sleep(0.005)
print(f"{min(arrivals):.6f} {max(arrivals):.6f}")
