#ifndef JOURNAL_CSQLITE_SHIM_H
#define JOURNAL_CSQLITE_SHIM_H

#include <sqlite3.h>
#include <stdint.h>
#include <strings.h>

// Swift cannot call C variadic functions nor import function-like macros,
// so the few that the store needs are wrapped here.

static inline int journal_sqlite3_db_config_flag(sqlite3 *db, int op, int enable) {
    return sqlite3_db_config(db, op, enable, (int *)0);
}

static inline sqlite3_destructor_type journal_sqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}

// The authorizer of connections that run SQL a person typed: what a read-only connection still allows
// and could change is refused while preparing. A pragma with an argument sets something, unless it is
// one whose argument names what to read about; attaching files and loading extensions are refused.
static int journal_reading_authorizer(void *context, int action, const char *first, const char *second,
                                      const char *database, const char *trigger) {
    (void)context; (void)database; (void)trigger;
    static const char *const reading[] = {
        "table_info", "table_xinfo", "table_list", "index_info", "index_xinfo", "index_list",
        "foreign_key_list", "foreign_key_check", "integrity_check", "quick_check", 0,
    };
    switch (action) {
    case SQLITE_PRAGMA:
        if (second == 0) return SQLITE_OK;
        for (int index = 0; reading[index] != 0; index++) {
            if (first != 0 && strcasecmp(first, reading[index]) == 0) return SQLITE_OK;
        }
        return SQLITE_DENY;
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
        return SQLITE_DENY;
    case SQLITE_FUNCTION:
        return (second != 0 && strcasecmp(second, "load_extension") == 0) ? SQLITE_DENY : SQLITE_OK;
    default:
        return SQLITE_OK;
    }
}

static inline int journal_allow_only_reading(sqlite3 *db) {
    return sqlite3_set_authorizer(db, journal_reading_authorizer, 0);
}

// Keeps the WAL short without ever waiting: once a commit leaves `bound` frames or more in it, a
// truncating checkpoint runs with no busy handler, so it waits for no reader or writer. With none in
// the way it copies the WAL into the database and truncates it to nothing; with a writer at work it
// does what a passive checkpoint does; with a reader still on an old snapshot it copies what it can
// and truncates nothing. The next commit past the bound tries again. Replaces SQLite's automatic
// checkpoint, which never truncates, and whose progress a new process forgets: each process then
// rebuilds its WAL index from the whole WAL, so a WAL left long makes every command slower.
// `context` packs the bound (low 16 bits) and the connection's busy timeout in milliseconds (above).
static int journal_wal_bound_hook(void *context, sqlite3 *db, const char *name, int frames) {
    intptr_t packed = (intptr_t)context;
    int bound = (int)(packed & 0xffff);
    int timeout = (int)(packed >> 16);
    if (frames < bound) return SQLITE_OK;
    sqlite3_busy_timeout(db, 0);
    (void)sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_TRUNCATE, (int *)0, (int *)0);
    sqlite3_busy_timeout(db, timeout);
    return SQLITE_OK;
}

static inline void journal_bound_wal(sqlite3 *db, int bound, int busy_timeout) {
    sqlite3_wal_hook(db, journal_wal_bound_hook, (void *)(((intptr_t)busy_timeout << 16) | (bound & 0xffff)));
}

#endif
