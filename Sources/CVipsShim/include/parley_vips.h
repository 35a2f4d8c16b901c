#ifndef PARLEY_VIPS_H
#define PARLEY_VIPS_H

/*
 * A small, non-variadic face over libvips for thumbnailing untrusted uploads.
 *
 * This header deliberately uses only standard C types: Swift imports it
 * without ever seeing glib or libvips (whose variadic, NULL-terminated option
 * lists Swift cannot call anyway).
 *
 * All functions are thread-safe once parley_vips_start() has succeeded.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. */
#define PARLEY_VIPS_OK 0
#define PARLEY_VIPS_ERROR (-1)           /* undecodable input, or libvips failed; see parley_vips_last_error */
#define PARLEY_VIPS_TOO_MANY_PIXELS (-2) /* header's width * height is over the caller's limit */
#define PARLEY_VIPS_TIMED_OUT (-3)       /* evaluation aborted at the deadline */
#define PARLEY_VIPS_NOT_STARTED (-4)     /* parley_vips_start() has not succeeded */

/* The loader family a buffer was recognised as. */
#define PARLEY_VIPS_FAMILY_OTHER 0
#define PARLEY_VIPS_FAMILY_JPEG 1
#define PARLEY_VIPS_FAMILY_PNG 2
#define PARLEY_VIPS_FAMILY_WEBP 3
#define PARLEY_VIPS_FAMILY_GIF 4
#define PARLEY_VIPS_FAMILY_HEIF 5
#define PARLEY_VIPS_FAMILY_TIFF 6

/* Output encodings. */
#define PARLEY_VIPS_FORMAT_JPEG 1
#define PARLEY_VIPS_FORMAT_PNG 2
#define PARLEY_VIPS_FORMAT_WEBP 3

typedef struct parley_vips_header {
    int width;
    int height;
    int has_alpha; /* 0 or 1 */
    int family;    /* PARLEY_VIPS_FAMILY_* */
} parley_vips_header;

typedef struct parley_vips_output {
    unsigned char *data; /* encoded bytes; release with parley_vips_free */
    size_t length;
    int width;
    int height;
} parley_vips_output;

/*
 * Initialises libvips once per process; later calls do nothing and return the
 * first call's result. Blocks the loaders libvips marks untrusted (SVG, PDF,
 * JPEG 2000, JPEG XL, ImageMagick, FITS, ...), leaving JPEG, PNG, WebP, GIF,
 * HEIF and TIFF. cache_max_bytes == 0 turns the operation cache off, which is
 * what a server thumbnailing distinct uploads wants (see the .c file).
 * concurrency is the number of worker threads per pipeline (0: libvips' default).
 */
int parley_vips_start(size_t cache_max_bytes, int cache_max_files, int concurrency);

/*
 * Reads only the header of the image in buf: dimensions, alpha, family.
 * No pixels are decoded. Returns PARLEY_VIPS_OK or PARLEY_VIPS_ERROR.
 */
int parley_vips_probe(const void *buf, size_t len, parley_vips_header *out);

/*
 * Shrinks the image in buf to fit inside box_width x box_height, keeping the
 * aspect ratio, never enlarging, applying the EXIF orientation, and encodes
 * it as format (PARLEY_VIPS_FORMAT_*), metadata stripped.
 *
 * Refuses, before decoding any pixel, an image whose header claims more than
 * max_pixels pixels. Aborts the work when it runs past time_limit_seconds
 * (measured from the call). Truncated or corrupt input is an error, not a
 * partially grey thumbnail.
 *
 * buf is read, never written, and is not retained after the call returns.
 * On PARLEY_VIPS_OK, out->data must be freed with parley_vips_free.
 */
int parley_vips_thumbnail(const void *buf, size_t len,
                          int box_width, int box_height, int format,
                          uint64_t max_pixels, double time_limit_seconds,
                          parley_vips_output *out);

/* Frees parley_vips_output.data (g_free). NULL is fine. */
void parley_vips_free(void *data);

/*
 * Copies libvips' accumulated error text into dst (always NUL-terminated when
 * cap > 0) and clears it. Returns the length copied. The buffer is
 * process-wide, so under concurrency it may hold another thread's messages:
 * use the text for logs, not for decisions (the return codes are for those).
 */
size_t parley_vips_last_error(char *dst, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
