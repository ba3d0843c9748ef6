#ifndef PASSMINT_CDEFLATE_SHIM_H
#define PASSMINT_CDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
