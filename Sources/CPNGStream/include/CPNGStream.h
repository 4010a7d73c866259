// Why this shim exists: libpng reports a fatal error (a bad CRC, a file cut short) through
// png_error, which must not return; the way back is a longjmp to the setjmp in png_jmpbuf, and
// Swift cannot call setjmp. Each function below wraps its libpng calls in that setjmp, so a
// broken file becomes an error message, never a crash. carouseld uses it to read a PNG one row
// at a time (the simplified png_image API only decodes whole pictures), so a non-interlaced
// PNG never needs a full-size buffer: a 5120x2880 one would be 59 MB.
#ifndef CPNGSTREAM_H
#define CPNGSTREAM_H
#include <stddef.h>

typedef struct cps_decoder cps_decoder;

/// Starts decoding the PNG read from `fd` (by pread, from offset 0, at most `size` bytes, through
/// a 64 KB buffer; the descriptor must stay open until cps_close) into 32-bit B,G,R,A rows:
/// palette, grey, 16-bit and tRNS expanded to 8-bit BGRA, alpha premultiplied (pixman's
/// a8r8g8b8), alpha 0xFF when the file has none. An interlaced (Adam7) file is decoded whole
/// here, into a full-size buffer, since its rows are only complete after the last pass; the
/// caller checks the pixel cap before. NULL on failure with the reason in `error`.
cps_decoder *cps_open(int fd, size_t size, char *error, size_t error_size);

int cps_width(const cps_decoder *decoder);
int cps_height(const cps_decoder *decoder);
/// 1 when the picture has alpha (an alpha channel or tRNS): rows are premultiplied.
int cps_has_alpha(const cps_decoder *decoder);
/// Rows read or skipped so far.
int cps_output_row(const cps_decoder *decoder);

/// Decodes the next `rows` rows into `destination`, `pitch` bytes apart. 0, or -1 (see cps_error).
int cps_read_rows(cps_decoder *decoder, unsigned char *destination, size_t pitch, int rows);
/// Passes over the next `rows` rows (still inflated, so damage there is noticed). 0 or -1.
int cps_skip_rows(cps_decoder *decoder, int rows);
/// Passes over the rest and reads the file's end. 0 or -1.
int cps_finish(cps_decoder *decoder);

/// Why the last call failed: libpng's message.
const char *cps_error(const cps_decoder *decoder);

void cps_close(cps_decoder *decoder);

#endif
