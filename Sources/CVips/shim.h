#ifndef PASSMINT_CVIPS_SHIM_H
#define PASSMINT_CVIPS_SHIM_H
#include <vips/vips.h>

/* VIPS_INIT is a macro; this starts libvips once per process with the settings PassMint relies on: one thread per
   operation (the batch workers parallelise across records) and no operation cache (inputs are per-record buffers
   whose addresses are reused, and the cache would hold their decoded pixels). Returns 0 on success. */
static inline int pm_vips_start(void) {
    if (vips_init("passmint") != 0) return -1;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    return 0;
}

/* vips_thumbnail_buffer is variadic: cover-crop (scale to fill, crop the centre) the encoded image in buf to exactly
   width x height, turning it upright by its EXIF orientation; JPEG shrink-on-load keeps big photos cheap. */
static inline int pm_vips_thumbnail_cover(const void *buf, size_t len, int width, int height, VipsImage **out) {
    return vips_thumbnail_buffer((void *)buf, len, out, width, "height", height, "crop", VIPS_INTERESTING_CENTRE,
                                 "size", VIPS_SIZE_BOTH, NULL);
}

/* vips_thumbnail_image is variadic: the same cover crop from an image already in memory (the @3x render). */
static inline int pm_vips_thumbnail_image_cover(VipsImage *in, int width, int height, VipsImage **out) {
    return vips_thumbnail_image(in, out, width, "height", height, "crop", VIPS_INTERESTING_CENTRE,
                                "size", VIPS_SIZE_BOTH, NULL);
}

/* vips_pngsave_buffer is variadic: 8-bit PNG without metadata (EXIF, XMP and ICC are of no use to Wallet). The
   caller frees *buf with g_free. */
static inline int pm_vips_pngsave(VipsImage *in, void **buf, size_t *len) {
    return vips_pngsave_buffer(in, buf, len, "strip", TRUE, "bitdepth", 8, NULL);
}
#endif
