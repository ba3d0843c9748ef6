#ifndef PASSMINT_CZINT_SHIM_H
#define PASSMINT_CZINT_SHIM_H
/* Debian's libzint-dev 2.11.1 ships no .pc file, so this module links "zint" by name. */
#include <stddef.h>
#include <zint.h>

/* errtxt is a char[100], which Swift imports as a 100-element tuple: hand it over as a C string. */
static inline const char *pm_zint_errtxt(const struct zint_symbol *symbol) {
    return symbol->errtxt;
}

/* The symbol's settings PassMint uses, in one call: Swift cannot write the fgcolour/bgcolour char arrays, and
   a single setter keeps every preview barcode drawn with the same options (no human-readable text, quiet zones,
   black on white). */
static inline void pm_zint_configure(struct zint_symbol *symbol, int symbology, int input_mode, int option_1,
                                     int option_2, float height) {
    symbol->symbology = symbology;
    symbol->input_mode = input_mode;
    symbol->option_1 = option_1;
    symbol->option_2 = option_2;
    symbol->show_hrt = 0;
    symbol->output_options |= BARCODE_QUIET_ZONES;
    if (height > 0) symbol->height = height;
    symbol->scale = 1.0f;
}

/* The vector header's first rectangle, or NULL: a NULL `vector` pointer is checked here once. */
static inline const struct zint_vector_rect *pm_zint_first_rect(const struct zint_symbol *symbol) {
    return symbol->vector ? symbol->vector->rectangles : NULL;
}

/* The vector header's first hexagon (MaxiCode only), or NULL. */
static inline const struct zint_vector_hexagon *pm_zint_first_hexagon(const struct zint_symbol *symbol) {
    return symbol->vector ? symbol->vector->hexagons : NULL;
}

/* The vector image's width, 0 when there is no vector header. */
static inline float pm_zint_vector_width(const struct zint_symbol *symbol) {
    return symbol->vector ? symbol->vector->width : 0;
}

/* The vector image's height, 0 when there is no vector header. */
static inline float pm_zint_vector_height(const struct zint_symbol *symbol) {
    return symbol->vector ? symbol->vector->height : 0;
}
#endif
