#ifndef PASSMINT_CSQLITE_SHIM_H
#define PASSMINT_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro that Swift cannot import: bind text that SQLite copies before returning. */
static inline int pm_sqlite3_bind_text_transient(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}
/* The same for blobs (stored pass images): SQLite copies the bytes, so Swift's buffer need not outlive the call. */
static inline int pm_sqlite3_bind_blob_transient(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}
/* sqlite3_config is variadic, which Swift cannot call: how many bytes a statement journal may hold in memory before
   SQLite moves it to a temporary file. */
static inline int pm_sqlite3_config_statement_journal_spill(int bytes) {
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes);
}
#endif
