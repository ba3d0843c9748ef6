#ifndef PASSMINT_CPOSTGRESQL_SHIM_H
#define PASSMINT_CPOSTGRESQL_SHIM_H
#include <libpq-fe.h>

/* PG_DIAG_SQLSTATE is a character-constant macro ('C') that Swift imports as an Int32 only by accident of
   the header; name it so callers ask for the SQLSTATE without a magic number. */
static inline char *pm_pq_sqlstate(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_SQLSTATE);
}
#endif
