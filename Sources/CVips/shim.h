#ifndef PASSMINT_CVIPS_SHIM_H
#define PASSMINT_CVIPS_SHIM_H
#include <stdlib.h>
#include <vips/vips.h>

/* VIPS_INIT is a macro; this starts libvips once per process with the settings PassMint relies on: one thread per
   operation (the batch workers parallelise across records) and no operation cache (inputs are per-record buffers
   whose addresses are reused, and the cache would hold their decoded pixels). Returns 0 on success. */
static void pm_vips_drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

static inline int pm_vips_start(void) {
    /* libvips loads its optional modules (ImageMagick, libheif, poppler, openslide, libjxl) from
       $VIPSHOME/lib/vips-modules-X.Y at start. PassMint decodes only PNG and JPEG, sniffed beforehand, with the
       built-in loaders: pointing VIPSHOME where no modules are keeps those decoders (and their exit-time
       handlers) out of the process. An explicit VIPSHOME is left alone. */
    setenv("VIPSHOME", "/nonexistent/passmint-no-vips-modules", 0);
    if (vips_init("passmint") != 0) return -1;
    /* libvips prints warnings (a damaged file's details) to stderr; PassMint reports failures itself, per record,
       and a stray line would break a batch's progress bar. */
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE, pm_vips_drop_log, NULL);
    vips_concurrency_set(1);
    /* No ORC: liborc compiles SIMD kernels at run time, and a batch's worker threads compiling and running them at
       once crashed the process inside liborc (SIGSEGV under load); libvips' C paths give the same pixels. */
    vips_vector_set_enabled(FALSE);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    return 0;
}

/* vips_jpegload_buffer is variadic: decode at 1/shrink size (1, 2, 4 or 8; libjpeg's shrink-on-load keeps big
   photos cheap), streaming, failing on a truncated file rather than padding it with grey rows. vips_thumbnail_buffer
   would pick the shrink itself but ignores fail_on for buffers in libvips 8.14. */
static inline int pm_vips_load_jpeg(const void *buf, size_t len, int shrink, VipsImage **out) {
    return vips_jpegload_buffer((void *)buf, len, out, "shrink", shrink, "access", VIPS_ACCESS_SEQUENTIAL,
                                "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/* vips_pngload_buffer is variadic: streaming, failing on a truncated or damaged file. */
static inline int pm_vips_load_png(const void *buf, size_t len, VipsImage **out) {
    return vips_pngload_buffer((void *)buf, len, out, "access", VIPS_ACCESS_SEQUENTIAL,
                               "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/* vips_thumbnail_image is variadic: cover-crop (scale to fill, crop the centre) to exactly width x height, turned
   upright by the image's EXIF orientation. */
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
