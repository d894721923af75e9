#ifndef JOURNAL_CSQLITE_SHIM_H
#define JOURNAL_CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot call C variadic functions nor import function-like macros,
// so the few that the store needs are wrapped here.

static inline int journal_sqlite3_db_config_flag(sqlite3 *db, int op, int enable) {
    return sqlite3_db_config(db, op, enable, (int *)0);
}

static inline sqlite3_destructor_type journal_sqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
