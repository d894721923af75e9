#!/usr/bin/env python3
# `arrivals.py LIMIT SQL DB...`: for each line `START VALUE` on its input, waits until SQL (its `?`
# bound to VALUE) answers 1 in every journal DB, and prints the seconds from START (an $EPOCHREALTIME)
# to the first and to the last arrival, or LIMIT for one that never came. It says `ready` once every
# file is open. One process, started before the first add and kept for all of them, that looks at a
# journal only when a file in its folder changed (inotify), and at every pending one every 50 ms in
# case a change went unseen: a process started per add (Python and 49 connections, tens of ms of CPU)
# and a look at 49 journals every 5 ms (a scan of each) took a core from the 49 daemons it measured,
# more than they spent themselves.
import ctypes
import os
import select
import sqlite3
import struct
import sys
import time

IN_MODIFY, IN_CREATE, IN_MOVED_TO = 0x2, 0x100, 0x80
libc = ctypes.CDLL(None, use_errno=True)
libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]

limit, sql, paths = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
connections = {path: sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) for path in paths}
notify = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
if notify < 0:
    sys.exit(f"arrivals: inotify_init1 failed: {os.strerror(ctypes.get_errno())}")
by_watch = {}
for path in paths:
    watch = libc.inotify_add_watch(notify, os.path.dirname(path).encode(), IN_MODIFY | IN_CREATE | IN_MOVED_TO)
    if watch < 0:
        sys.exit(f"arrivals: cannot watch {os.path.dirname(path)}: {os.strerror(ctypes.get_errno())}")
    by_watch.setdefault(watch, []).append(path)
print("ready", flush=True)


def changed():
    """The journals whose folders had a change since the last call."""
    found = set()
    while True:
        try:
            data = os.read(notify, 65536)
        except BlockingIOError:
            return found
        offset = 0
        while offset + 16 <= len(data):
            watch, _, _, length = struct.unpack_from("iIII", data, offset)
            # -1: the queue overflowed, and any journal may have changed.
            found.update(paths if watch == -1 else by_watch.get(watch, []))
            offset += 16 + length


for line in sys.stdin:
    start_text, value = line.rstrip("\n").split(" ", 1)
    start = float(start_text)
    pending = set(paths)
    arrivals = []
    look = set(paths)
    while pending:
        for path in sorted(look & pending):
            try:
                if connections[path].execute(sql, (value,)).fetchone()[0] == 1:
                    arrivals.append(time.time() - start)
                    pending.discard(path)
            except sqlite3.Error:
                pass
        if not pending:
            break
        if time.time() - start > limit:
            arrivals += [limit] * len(pending)
            break
        readable, _, _ = select.select([notify], [], [], 0.05)
        look = changed() if readable else set(pending)
    changed()
    print(f"{min(arrivals):.6f} {max(arrivals):.6f}", flush=True)
