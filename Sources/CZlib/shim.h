#ifndef PASSMINT_CZLIB_SHIM_H
#define PASSMINT_CZLIB_SHIM_H
#include <zlib.h>

/* deflateInit2 is a macro (it passes ZLIB_VERSION and the stream size), which Swift cannot call. */
static inline int pm_deflate_init_raw(z_stream *stream, int level, int window_bits, int mem_level) {
    return deflateInit2(stream, level, Z_DEFLATED, -window_bits, mem_level, Z_DEFAULT_STRATEGY);
}
#endif
