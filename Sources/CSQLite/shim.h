#ifndef PASSMINT_CSQLITE_SHIM_H
#define PASSMINT_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
