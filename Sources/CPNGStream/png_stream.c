// See include/CPNGStream.h for why this shim exists.
#include "CPNGStream.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

struct cps_decoder {
    png_structp png;
    png_infop info;
    // The file, read by pread through `buffer` (never copied whole into memory; a file that
    // shrinks while it is read ends early, a truncated PNG, instead of faulting as a mapping
    // would). Reads stop at `limit`, the size checked at open.
    int fd;
    off_t offset, limit;
    size_t buffered, used;
    unsigned char buffer[64 * 1024];
    int failed;
    char message[256];
    int width, height, alpha, row;
    unsigned char *whole;   // interlaced only: every row, decoded at open
    unsigned char *scratch; // one row, for rows that are skipped
};

static void record(cps_decoder *decoder, const char *message) {
    if (!decoder->failed) {
        decoder->failed = 1;
        snprintf(decoder->message, sizeof decoder->message, "%s", message);
    }
}

// Fatal: remember why and jump back into the cps_ function that called libpng.
static void on_error(png_structp png, png_const_charp message) {
    record((cps_decoder *)png_get_error_ptr(png), message);
    png_longjmp(png, 1);
}

// Warnings (a bad ancillary chunk, an odd iCCP) lose no pixels; carouseld logs its own reasons.
static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

// libpng asks for a few bytes at a time (chunk headers, CRCs, pieces of IDAT): served from the
// buffer, refilled a chunk at a time.
static void read_data(png_structp png, png_bytep out, size_t count) {
    cps_decoder *decoder = (cps_decoder *)png_get_io_ptr(png);
    while (count > 0) {
        if (decoder->used == decoder->buffered) {
            off_t left = decoder->limit - decoder->offset;
            size_t want = left < (off_t)sizeof decoder->buffer ? (size_t)(left > 0 ? left : 0) : sizeof decoder->buffer;
            ssize_t got = 0;
            while (want > 0 && (got = pread(decoder->fd, decoder->buffer, want, decoder->offset)) < 0 && errno == EINTR) {}
            if (got < 0) png_error(png, "read error");
            if (got == 0) png_error(png, "unexpected end of file (truncated)");
            decoder->offset += got;
            decoder->buffered = (size_t)got;
            decoder->used = 0;
        }
        size_t take = decoder->buffered - decoder->used < count ? decoder->buffered - decoder->used : count;
        memcpy(out, decoder->buffer + decoder->used, take);
        decoder->used += take;
        out += take;
        count -= take;
    }
}

// libpng gives straight alpha; pixman composites premultiplied.
static void premultiply(unsigned char *row, int width) {
    for (int x = 0; x < width; x++) {
        unsigned char *p = row + (size_t)x * 4;
        unsigned a = p[3];
        if (a == 255) continue;
        p[0] = (unsigned char)((p[0] * a + 127) / 255);
        p[1] = (unsigned char)((p[1] * a + 127) / 255);
        p[2] = (unsigned char)((p[2] * a + 127) / 255);
    }
}

static void destroy(cps_decoder *decoder) {
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder->whole);
    free(decoder->scratch);
    free(decoder);
}

cps_decoder *cps_open(int fd, size_t size, char *error, size_t error_size) {
    cps_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    decoder->fd = fd;
    decoder->limit = (off_t)size;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, on_error, on_warning);
    decoder->info = decoder->png ? png_create_info_struct(decoder->png) : NULL;
    if (!decoder->info) {
        snprintf(error, error_size, "out of memory");
        destroy(decoder);
        return NULL;
    }
    png_bytep *volatile rows = NULL; // volatile: read after a longjmp
    if (setjmp(png_jmpbuf(decoder->png))) {
        snprintf(error, error_size, "%s", decoder->message);
        free(rows);
        destroy(decoder);
        return NULL;
    }
    png_set_read_fn(decoder->png, decoder, read_data);
    // Every chunk's CRC already catches a damaged file; zlib's Adler-32 over the inflated rows
    // (each pixel byte read once more) is about a tenth of a PNG's decode. Debian 13's libpng is
    // built without the option (it keeps the check).
#ifdef PNG_IGNORE_ADLER32
    png_set_option(decoder->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(decoder->png, decoder->info);
    int type = png_get_color_type(decoder->png, decoder->info);
    decoder->alpha = (type & PNG_COLOR_MASK_ALPHA) || png_get_valid(decoder->png, decoder->info, PNG_INFO_tRNS);
    png_set_expand(decoder->png);      // palette to RGB, grey below 8 bits to 8, tRNS to alpha
    png_set_scale_16(decoder->png);    // 16 bits to 8, rounded
    png_set_gray_to_rgb(decoder->png);
    png_set_bgr(decoder->png);
    if (!decoder->alpha) png_set_filler(decoder->png, 0xFF, PNG_FILLER_AFTER);
    int interlaced = png_get_interlace_type(decoder->png, decoder->info) != PNG_INTERLACE_NONE;
    if (interlaced) png_set_interlace_handling(decoder->png);
    png_read_update_info(decoder->png, decoder->info);
    decoder->width = (int)png_get_image_width(decoder->png, decoder->info);
    decoder->height = (int)png_get_image_height(decoder->png, decoder->info);
    size_t pitch = png_get_rowbytes(decoder->png, decoder->info);
    if (pitch != (size_t)decoder->width * 4) png_error(decoder->png, "unexpected row size after transforms");
    decoder->scratch = malloc(pitch);
    if (!decoder->scratch) png_error(decoder->png, "out of memory");
    if (interlaced) {
        decoder->whole = malloc(pitch * (size_t)decoder->height);
        rows = malloc(sizeof *rows * (size_t)decoder->height);
        if (!decoder->whole || !rows) png_error(decoder->png, "out of memory for an interlaced picture");
        for (int y = 0; y < decoder->height; y++) rows[y] = decoder->whole + pitch * (size_t)y;
        png_read_image(decoder->png, rows);
        free(rows);
        rows = NULL;
    }
    return decoder;
}

int cps_width(const cps_decoder *decoder) { return decoder->width; }
int cps_height(const cps_decoder *decoder) { return decoder->height; }
int cps_has_alpha(const cps_decoder *decoder) { return decoder->alpha; }
int cps_output_row(const cps_decoder *decoder) { return decoder->row; }

// One row into `out` (NULL: into the scratch row, for skipping).
static void next_row(cps_decoder *decoder, unsigned char *out) {
    unsigned char *target = out ? out : decoder->scratch;
    size_t pitch = (size_t)decoder->width * 4;
    if (decoder->whole) {
        if (out) memcpy(out, decoder->whole + pitch * (size_t)decoder->row, pitch);
    } else {
        png_read_row(decoder->png, target, NULL);
    }
    if (out && decoder->alpha) premultiply(out, decoder->width);
    decoder->row += 1;
}

static int rows_left(cps_decoder *decoder, int rows) {
    if (rows > decoder->height - decoder->row) {
        record(decoder, "read past the last row");
        return 0;
    }
    return 1;
}

int cps_read_rows(cps_decoder *decoder, unsigned char *destination, size_t pitch, int rows) {
    if (decoder->failed || !rows_left(decoder, rows)) return -1;
    if (setjmp(png_jmpbuf(decoder->png))) return -1;
    for (int y = 0; y < rows; y++) next_row(decoder, destination + pitch * (size_t)y);
    return 0;
}

int cps_skip_rows(cps_decoder *decoder, int rows) {
    if (decoder->failed || !rows_left(decoder, rows)) return -1;
    if (setjmp(png_jmpbuf(decoder->png))) return -1;
    for (int y = 0; y < rows; y++) next_row(decoder, NULL);
    return 0;
}

int cps_finish(cps_decoder *decoder) {
    if (decoder->failed) return -1;
    if (setjmp(png_jmpbuf(decoder->png))) return -1;
    while (decoder->row < decoder->height) next_row(decoder, NULL);
    png_read_end(decoder->png, NULL);
    return 0;
}

const char *cps_error(const cps_decoder *decoder) { return decoder->message; }

void cps_close(cps_decoder *decoder) {
    if (decoder) destroy(decoder);
}
