#ifndef PASSMINT_CCURL_SHIM_H
#define PASSMINT_CCURL_SHIM_H
#include <curl/curl.h>
#endif
