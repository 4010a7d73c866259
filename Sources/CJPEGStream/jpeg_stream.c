// See include/CJPEGStream.h for why this shim exists.
#include "CJPEGStream.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <jpeglib.h>
#include <jerror.h>

/// libjpeg's input from a file descriptor by pread, a chunk at a time: the file is never copied
/// whole into memory, and a file that shrinks while it is read ends early (a truncated JPEG)
/// instead of faulting as a mapping would. Reads stop at `limit`, the size checked at open.
struct fd_source {
    struct jpeg_source_mgr manager;
    int fd;
    off_t offset, limit;
    JOCTET buffer[64 * 1024];
};

struct cjs_decoder {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    struct fd_source source;
    jmp_buf jump;
    int failed;
    /// CMYK or YCCK: libjpeg gives C,M,Y,K rows (4 bytes a pixel, like BGRA), turned to BGRA here.
    int cmyk;
    /// A draft of a progressive file: its rows come from the first scans only (buffered-image
    /// mode), and the rest of the file is never read.
    int draft;
    char message[JMSG_LENGTH_MAX];
};

static void record(j_common_ptr info) {
    cjs_decoder *decoder = (cjs_decoder *)info->client_data;
    if (!decoder->failed) {
        decoder->failed = 1;
        (*info->err->format_message)(info, decoder->message);
    }
}

// Fatal: remember why and jump back into the cjs_ function that called libjpeg.
static void error_exit(j_common_ptr info) {
    record(info);
    longjmp(((cjs_decoder *)info->client_data)->jump, 1);
}

// Warnings (level -1) fail the decode, except extraneous bytes; trace messages are dropped.
// Nothing is printed: carouseld logs the reason itself.
static void emit_message(j_common_ptr info, int level) {
    if (level < 0 && info->err->msg_code != JWRN_EXTRANEOUS_DATA) record(info);
}

static void source_init(j_decompress_ptr info) { (void)info; }

// Refills the buffer; at the end of the file (or its limit) inserts an EOI after a warning, as
// libjpeg's own sources do, so a cut-off file is reported as "Premature end of JPEG file".
static boolean source_fill(j_decompress_ptr info) {
    struct fd_source *source = (struct fd_source *)info->src;
    off_t left = source->limit - source->offset;
    size_t want = left < (off_t)sizeof source->buffer ? (size_t)(left > 0 ? left : 0) : sizeof source->buffer;
    ssize_t got = 0;
    while (want > 0 && (got = pread(source->fd, source->buffer, want, source->offset)) < 0 && errno == EINTR) {}
    if (got < 0) {
        cjs_decoder *decoder = (cjs_decoder *)info->client_data;
        snprintf(decoder->message, sizeof decoder->message, "read error: %s", strerror(errno));
        decoder->failed = 1;
        longjmp(decoder->jump, 1);
    }
    if (got == 0) {
        WARNMS(info, JWRN_JPEG_EOF);
        source->buffer[0] = 0xFF;
        source->buffer[1] = JPEG_EOI;
        got = 2;
    } else {
        source->offset += got;
    }
    source->manager.next_input_byte = source->buffer;
    source->manager.bytes_in_buffer = (size_t)got;
    return TRUE;
}

static void source_skip(j_decompress_ptr info, long count) {
    struct jpeg_source_mgr *manager = info->src;
    if (count <= 0) return;
    while (count > (long)manager->bytes_in_buffer) {
        count -= (long)manager->bytes_in_buffer;
        (void)source_fill(info);
    }
    manager->next_input_byte += count;
    manager->bytes_in_buffer -= (size_t)count;
}

static void source_term(j_decompress_ptr info) { (void)info; }

static void use_fd_source(cjs_decoder *decoder, int fd, size_t limit) {
    struct fd_source *source = &decoder->source;
    source->fd = fd;
    source->offset = 0;
    source->limit = (off_t)limit;
    source->manager.init_source = source_init;
    source->manager.fill_input_buffer = source_fill;
    source->manager.skip_input_data = source_skip;
    source->manager.resync_to_restart = jpeg_resync_to_restart;
    source->manager.term_source = source_term;
    source->manager.bytes_in_buffer = 0;
    source->manager.next_input_byte = NULL;
    decoder->info.src = &source->manager;
}

// True once every component's DC coefficients have arrived: enough for a picture at 1/8,
// where each 8x8 block is one pixel of its average colour.
static int every_dc_seen(j_decompress_ptr info) {
    if (!info->coef_bits) return 0;
    for (int component = 0; component < info->num_components; component++) {
        if (info->coef_bits[component][0] < 0) return 0;
    }
    return 1;
}

// Reads scans until every component has its DC coefficients (usually the first scan alone, a
// few percent of the file), then starts an output pass over what has arrived.
static void start_draft_output(cjs_decoder *decoder) {
    for (;;) {
        int status = jpeg_consume_input(&decoder->info);
        if (status == JPEG_REACHED_EOI || status == JPEG_SUSPENDED) break;
        if (status == JPEG_SCAN_COMPLETED && every_dc_seen(&decoder->info)) break;
    }
    jpeg_start_output(&decoder->info, decoder->info.input_scan_number);
}

cjs_decoder *cjs_open(int fd, size_t size, int scale_num, int scale_denom, int draft,
                      char *error, size_t error_size, int *unsupported) {
    *unsupported = 0;
    cjs_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    decoder->info.err = jpeg_std_error(&decoder->errors);
    decoder->errors.error_exit = error_exit;
    decoder->errors.emit_message = emit_message;
    decoder->info.client_data = decoder;
    if (setjmp(decoder->jump)) {
        snprintf(error, error_size, "%s", decoder->message);
        jpeg_destroy_decompress(&decoder->info);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    use_fd_source(decoder, fd, size);
    jpeg_read_header(&decoder->info, TRUE);
    // libjpeg converts YCCK to CMYK itself, but neither to RGB: cmyk_to_bgra does that.
    decoder->cmyk = decoder->info.jpeg_color_space == JCS_CMYK || decoder->info.jpeg_color_space == JCS_YCCK;
    decoder->info.scale_num = (unsigned)scale_num;
    decoder->info.scale_denom = (unsigned)scale_denom;
    decoder->info.out_color_space = decoder->cmyk ? JCS_CMYK : JCS_EXT_BGRA;
    // A baseline file has one scan: its draft is the whole decode at this scale.
    decoder->draft = draft && jpeg_has_multiple_scans(&decoder->info);
    decoder->info.buffered_image = decoder->draft ? TRUE : FALSE;
    // Smoothing guesses missing AC coefficients from the next block rows' DC values, and so
    // reads ahead into later scans near the bottom; a 1/8 draft shows no AC anyway.
    if (decoder->draft) decoder->info.do_block_smoothing = FALSE;
    jpeg_start_decompress(&decoder->info);
    if (decoder->draft) start_draft_output(decoder);
    return decoder;
}

// CMYK to B,G,R,A as browsers do it, without a colour profile: each colour is what is left after
// its ink and the black ink (R = (1 - C)(1 - K)). Photoshop and other Adobe writers store the
// inks inverted (the Adobe marker says so), so there the stored values already are 1 - C, 1 - K.
static void cmyk_to_bgra(unsigned char *row, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++) {
        unsigned char *p = row + (size_t)x * 4;
        unsigned c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        p[0] = (unsigned char)((y * k + 127) / 255);
        p[1] = (unsigned char)((m * k + 127) / 255);
        p[2] = (unsigned char)((c * k + 127) / 255);
        p[3] = 0xFF;
    }
}

int cjs_output_width(const cjs_decoder *decoder) { return (int)decoder->info.output_width; }
int cjs_output_height(const cjs_decoder *decoder) { return (int)decoder->info.output_height; }
int cjs_output_row(const cjs_decoder *decoder) { return (int)decoder->info.output_scanline; }

int cjs_read_rows(cjs_decoder *decoder, unsigned char *destination, size_t pitch, int rows) {
    if (decoder->failed) return -1;
    if (setjmp(decoder->jump)) return -1;
    for (int row = 0; row < rows; ) {
        JSAMPROW line = destination + (size_t)row * pitch;
        JDIMENSION got = jpeg_read_scanlines(&decoder->info, &line, 1);
        if (got == 0) {
            snprintf(decoder->message, sizeof decoder->message, "no more rows after %u",
                     decoder->info.output_scanline);
            decoder->failed = 1;
        }
        if (decoder->failed) return -1;
        if (decoder->cmyk) cmyk_to_bgra(line, decoder->info.output_width, decoder->info.saw_Adobe_marker);
        row += (int)got;
    }
    return 0;
}

static int read_and_drop_rows(cjs_decoder *decoder, int rows) {
    unsigned char *row = malloc((size_t)decoder->info.output_width * 4);
    if (!row) {
        snprintf(decoder->message, sizeof decoder->message, "out of memory");
        decoder->failed = 1;
        return -1;
    }
    int result = 0;
    for (int done = 0; done < rows && result == 0; done++) result = cjs_read_rows(decoder, row, 0, 1);
    free(row);
    return result;
}

int cjs_skip_rows(cjs_decoder *decoder, int rows) {
    if (decoder->failed) return -1;
    // jpeg_skip_scanlines is not made for buffered-image mode; a draft is small anyway.
    if (decoder->draft) return read_and_drop_rows(decoder, rows);
    if (setjmp(decoder->jump)) return -1;
    if (rows > 0) jpeg_skip_scanlines(&decoder->info, (JDIMENSION)rows);
    return decoder->failed ? -1 : 0;
}

int cjs_finish(cjs_decoder *decoder) {
    if (decoder->failed) return -1;
    // The scans after the draft's are left unread: damage there is the full decode's to find.
    if (decoder->draft) return 0;
    JDIMENSION left = decoder->info.output_height - decoder->info.output_scanline;
    // Skipping to the bottom would mark the end reached without decoding the rest, so a file
    // cut off there would pass: skip all but the last row and decode that one.
    if (left > 1 && cjs_skip_rows(decoder, (int)(left - 1)) != 0) return -1;
    if (left > 0 && read_and_drop_rows(decoder, 1) != 0) return -1;
    if (setjmp(decoder->jump)) return -1;
    jpeg_finish_decompress(&decoder->info);
    return decoder->failed ? -1 : 0;
}

const char *cjs_error(const cjs_decoder *decoder) { return decoder->message; }

void cjs_close(cjs_decoder *decoder) {
    if (!decoder) return;
    if (setjmp(decoder->jump) == 0) jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}
