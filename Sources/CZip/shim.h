#ifndef PASSMINT_CZIP_SHIM_H
#define PASSMINT_CZIP_SHIM_H
#include <zip.h>
#endif
