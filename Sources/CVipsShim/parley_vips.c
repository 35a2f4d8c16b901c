/*
 * parley_vips.c: the only code in Parley that calls libvips.
 *
 * libvips' API is variadic (NULL-terminated name/value option lists) and
 * steeped in glib types; Swift can call neither comfortably. This file turns
 * the handful of operations Parley needs into plain C functions with fixed
 * arguments. See include/parley_vips.h for the contracts.
 */

#include "parley_vips.h"

#include <string.h>
#include <vips/vips.h>

/* Set once parley_vips_start() has initialised libvips successfully. */
static gint started = 0;

/* Swallows a log message. */
static void
ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message,
           gpointer user_data)
{
    (void)domain;
    (void)level;
    (void)message;
    (void)user_data;
}

static int
start_once(size_t cache_max_bytes, int cache_max_files, int concurrency)
{
    /* Hostile or merely sloppy uploads make libjpeg, libpng, libtiff, ...
     * print warnings, which libvips forwards to glib's log in its "VIPS"
     * domain. Drop them: failures still reach us through return codes and the
     * error buffer. (A log handler rather than g_setenv("VIPS_WARNING"):
     * setenv is not safe once other threads exist, and the server has them.) */
    g_log_set_handler("VIPS",
                      G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE |
                          G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG,
                      ignore_log, NULL);

    if (VIPS_INIT("parley"))
        return PARLEY_VIPS_ERROR;

    /* Refuse the loaders libvips flags as not written for untrusted input
     * (SVG, PDF, JPEG 2000, JPEG XL, ImageMagick, FITS, OpenEXR, ...). What
     * remains for buffers is JPEG, PNG, WebP, GIF, HEIF and TIFF. */
    vips_block_untrusted_set(TRUE);

    /* The operation cache pays off when one process repeats the same
     * operation on the same input. Uploads are each thumbnailed once, and
     * every call wraps its buffer in a fresh blob (compared by address), so
     * the cache never hits here. It only holds on to memory: cached loaders
     * keep what they decoded (thumbnailing WebPs with a 64 MB cache kept
     * ~75 MB more resident), and cached operations keep pointers into callers'
     * buffers long freed (libvips does not copy them). So cache_max_bytes == 0
     * switches it off entirely, and that is the recommended setting. */
    vips_cache_set_max_mem(cache_max_bytes);
    vips_cache_set_max_files(cache_max_files);
    vips_cache_set_max(cache_max_bytes == 0 ? 0 : 100);

    /* Worker threads per pipeline; 0 keeps libvips' default (the core count). */
    if (concurrency > 0)
        vips_concurrency_set(concurrency);

    g_atomic_int_set(&started, 1);
    return PARLEY_VIPS_OK;
}

int
parley_vips_start(size_t cache_max_bytes, int cache_max_files, int concurrency)
{
    static gsize once = 0;
    static int result = PARLEY_VIPS_ERROR;

    if (g_once_init_enter(&once)) {
        result = start_once(cache_max_bytes, cache_max_files, concurrency);
        g_once_init_leave(&once, 1);
    }
    return result;
}

static int
family_of(VipsImage *image)
{
    const char *loader;

    /* libvips records which loader opened the image, e.g. "jpegload_buffer". */
    if (vips_image_get_string(image, "vips-loader", &loader)) {
        vips_error_clear();
        return PARLEY_VIPS_FAMILY_OTHER;
    }
    if (g_str_has_prefix(loader, "jpegload"))
        return PARLEY_VIPS_FAMILY_JPEG;
    if (g_str_has_prefix(loader, "pngload"))
        return PARLEY_VIPS_FAMILY_PNG;
    if (g_str_has_prefix(loader, "webpload"))
        return PARLEY_VIPS_FAMILY_WEBP;
    if (g_str_has_prefix(loader, "gifload"))
        return PARLEY_VIPS_FAMILY_GIF;
    if (g_str_has_prefix(loader, "heifload"))
        return PARLEY_VIPS_FAMILY_HEIF;
    if (g_str_has_prefix(loader, "tiffload"))
        return PARLEY_VIPS_FAMILY_TIFF;
    return PARLEY_VIPS_FAMILY_OTHER;
}

/* Opens buf lazily: libvips reads the header now and decodes pixels only when
 * something asks for them, which nothing here does. Sequential access keeps a
 * later decode (there is none) from caching the whole image. The image
 * borrows buf; unref it before buf goes away. */
static VipsImage *
open_header(const void *buf, size_t len)
{
    if (buf == NULL || len == 0) {
        vips_error("parley", "empty buffer");
        return NULL;
    }
    return vips_image_new_from_buffer(buf, len, "",
                                      "access", VIPS_ACCESS_SEQUENTIAL,
                                      NULL);
}

int
parley_vips_probe(const void *buf, size_t len, parley_vips_header *out)
{
    VipsImage *image;

    if (!g_atomic_int_get(&started))
        return PARLEY_VIPS_NOT_STARTED;
    if (!(image = open_header(buf, len)))
        return PARLEY_VIPS_ERROR;

    out->width = vips_image_get_width(image);
    out->height = vips_image_get_height(image);
    out->has_alpha = vips_image_hasalpha(image) ? 1 : 0;
    out->family = family_of(image);
    g_object_unref(image);
    return PARLEY_VIPS_OK;
}

/* The time limit of one parley_vips_thumbnail call.
 *
 * libvips' own hook, the "eval" progress signal, fires only after each strip
 * of the *output* is done. A thumbnail is small: a 100x100 box is often a
 * single strip, so the first signal comes when all the work is over. Instead a
 * watchdog thread sleeps until the deadline and then sets the kill flag on
 * every image of the pipeline, the loader's included. libvips checks that
 * flag each time it asks an image for pixels (vips_region_prepare), i.e. per
 * strip of *input*, so the decode stops within one strip. */
typedef struct {
    GMutex lock;
    GCond cond;
    gboolean done;      /* the caller has finished; do nothing */
    gboolean timed_out; /* the deadline passed first and the kill was sent */
    gint64 deadline;    /* g_get_monotonic_time() microseconds */
    VipsImage *image;   /* the pipeline's last image */
} parley_watchdog;

/* Sets the kill flag on image and everything it is computed from. The links
 * are libvips' record of which images feed which (VipsImage.upstream, a field
 * of the public struct); they are fixed once the pipeline is built, and every
 * image in them is kept alive by the pipeline's last image, which our caller
 * holds. */
static void
kill_pipeline(VipsImage *image, GHashTable *seen)
{
    GSList *p;

    if (!g_hash_table_add(seen, image))
        return; /* reached already by another path */
    vips_image_set_kill(image, TRUE);
    for (p = image->upstream; p; p = p->next)
        kill_pipeline(VIPS_IMAGE(p->data), seen);
}

static gpointer
watchdog_run(gpointer data)
{
    parley_watchdog *watchdog = (parley_watchdog *)data;

    g_mutex_lock(&watchdog->lock);
    while (!watchdog->done) {
        /* FALSE: the deadline has passed (spurious wake-ups return TRUE). */
        if (!g_cond_wait_until(&watchdog->cond, &watchdog->lock,
                               watchdog->deadline)) {
            if (!watchdog->done) {
                GHashTable *seen = g_hash_table_new(NULL, NULL);

                kill_pipeline(watchdog->image, seen);
                g_hash_table_destroy(seen);
                watchdog->timed_out = TRUE;
            }
            break;
        }
    }
    g_mutex_unlock(&watchdog->lock);
    return NULL;
}

static int
encode(VipsImage *image, int format, void **data, size_t *length)
{
    /* strip: thumbnails carry no EXIF (camera, GPS position, ...); the
     * orientation it held has already been applied by the thumbnailer. */
    switch (format) {
    case PARLEY_VIPS_FORMAT_JPEG:
        return vips_jpegsave_buffer(image, data, length,
                                    "Q", 80,
                                    "optimize_coding", TRUE,
                                    "strip", TRUE,
                                    NULL);
    case PARLEY_VIPS_FORMAT_PNG:
        return vips_pngsave_buffer(image, data, length,
                                   "compression", 6,
                                   "strip", TRUE,
                                   NULL);
    case PARLEY_VIPS_FORMAT_WEBP:
        return vips_webpsave_buffer(image, data, length,
                                    "Q", 80,
                                    "strip", TRUE,
                                    NULL);
    default:
        vips_error("parley", "unknown output format %d", format);
        return -1;
    }
}

int
parley_vips_thumbnail(const void *buf, size_t len,
                      int box_width, int box_height, int format,
                      uint64_t max_pixels, double time_limit_seconds,
                      parley_vips_output *out)
{
    parley_watchdog watchdog;
    GThread *thread;
    VipsImage *header;
    VipsImage *thumb;
    guint64 pixels;
    void *data = NULL;
    size_t length = 0;
    int failed;

    memset(out, 0, sizeof(*out));
    if (!g_atomic_int_get(&started))
        return PARLEY_VIPS_NOT_STARTED;
    if (box_width < 1 || box_height < 1 ||
        box_width > VIPS_MAX_COORD || box_height > VIPS_MAX_COORD) {
        vips_error("parley", "bad box %dx%d", box_width, box_height);
        return PARLEY_VIPS_ERROR;
    }
    if (!(time_limit_seconds > 0))
        return PARLEY_VIPS_TIMED_OUT;
    if (time_limit_seconds > 86400.0)
        time_limit_seconds = 86400.0; /* keeps the microseconds in range */
    watchdog.deadline = g_get_monotonic_time() +
                        (gint64)(time_limit_seconds * G_USEC_PER_SEC);

    /* The pixel limit is checked on the header alone: a 50000x50000 PNG of a
     * few kilobytes must be refused before anything allocates a frame. */
    if (!(header = open_header(buf, len)))
        return PARLEY_VIPS_ERROR;
    pixels = (guint64)vips_image_get_width(header) *
             (guint64)vips_image_get_height(header);
    g_object_unref(header);
    if (pixels > max_pixels)
        return PARLEY_VIPS_TOO_MANY_PIXELS;

    /* size=down: fit the box, never enlarge. Autorotation is on by default.
     * fail_on=error goes through option_string because libvips 8.14 does not
     * pass thumbnail's own fail_on to the loader: without it a truncated JPEG
     * "succeeds" with grey rows. The loader fails lazily, so its error
     * surfaces during the encode below, not here. libvips does not copy buf
     * (hence the const cast); it is only read, and only during this call. */
    if (vips_thumbnail_buffer((void *)buf, len, &thumb, box_width,
                              "height", box_height,
                              "size", VIPS_SIZE_DOWN,
                              "option_string", "fail_on=error",
                              NULL))
        return PARLEY_VIPS_ERROR;

    /* Opening may already have used up the time (HEIF, multi-page TIFF). */
    if (g_get_monotonic_time() >= watchdog.deadline) {
        g_object_unref(thumb);
        return PARLEY_VIPS_TIMED_OUT;
    }

    /* The pixels are computed during the encode, under the watchdog. It is
     * joined before thumb (and with it the pipeline) is released. */
    g_mutex_init(&watchdog.lock);
    g_cond_init(&watchdog.cond);
    watchdog.done = FALSE;
    watchdog.timed_out = FALSE;
    watchdog.image = thumb;
    if (!(thread = g_thread_try_new("parley-vips-watchdog", watchdog_run,
                                    &watchdog, NULL))) {
        vips_error("parley", "unable to start the watchdog thread");
        failed = -1;
    }
    else {
        failed = encode(thumb, format, &data, &length);

        g_mutex_lock(&watchdog.lock);
        watchdog.done = TRUE;
        g_cond_signal(&watchdog.cond);
        g_mutex_unlock(&watchdog.lock);
        g_thread_join(thread);
    }
    g_mutex_clear(&watchdog.lock);
    g_cond_clear(&watchdog.cond);

    if (failed) {
        g_object_unref(thumb);
        g_free(data);
        return watchdog.timed_out ? PARLEY_VIPS_TIMED_OUT : PARLEY_VIPS_ERROR;
    }

    /* If the kill came too late to matter, the thumbnail is complete: keep it. */
    out->data = (unsigned char *)data;
    out->length = length;
    out->width = vips_image_get_width(thumb);
    out->height = vips_image_get_height(thumb);
    g_object_unref(thumb);
    return PARLEY_VIPS_OK;
}

void
parley_vips_free(void *data)
{
    g_free(data);
}

size_t
parley_vips_last_error(char *dst, size_t cap)
{
    /* vips_error_buffer_copy takes and clears the text under libvips' lock,
     * so two threads cannot interleave a read with a clear. */
    char *text = vips_error_buffer_copy();
    size_t n = text ? strlen(text) : 0;

    if (cap > 0) {
        if (n >= cap)
            n = cap - 1;
        if (n > 0)
            memcpy(dst, text, n);
        dst[n] = '\0';
    }
    else
        n = 0;
    g_free(text);
    return n;
}
