#ifndef PASSMINT_CSQLITE_SHIM_H
#define PASSMINT_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro that Swift cannot import: bind text that SQLite copies before returning. */
static inline int pm_sqlite3_bind_text_transient(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}
#endif
