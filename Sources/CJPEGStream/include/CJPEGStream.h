// Why this shim exists: libjpeg reports a fatal error by calling error_exit, which must not
// return; the only way back is a longjmp to a setjmp, and Swift cannot call setjmp. Each
// function below wraps one libjpeg step in its own setjmp, so a corrupt or truncated file
// becomes an error message, never a crash. carouseld uses it to decode a JPEG a band of rows
// at a time (libturbojpeg 2.1 only decodes whole pictures), so a full-size decode buffer is
// never held: a 4000x3000 photo at half size would be 12 MB; and to read the file through a
// 64 KB buffer by pread rather than from a copy of the whole file in memory.
#ifndef CJPEGSTREAM_H
#define CJPEGSTREAM_H
#include <stddef.h>

typedef struct cjs_decoder cjs_decoder;

/// Starts decoding the JPEG read from `fd` (by pread, from offset 0, at most `size` bytes; the
/// descriptor must stay open until cjs_close) at scale
/// `scale_num`/`scale_denom` into 32-bit B,G,R,A rows (alpha 0xFF). Returns NULL on failure
/// with the reason in `error`. CMYK and YCCK files come out as BGRA too (converted in the shim,
/// inverted Adobe inks understood). `*unsupported` is set to 0 and kept for callers that fall
/// back to a whole-picture decode; no colour space sets it today. With `draft` set, a
/// progressive file gives rows made from its first scans only (until every component's DC
/// coefficients have arrived), and the rest of the file is not read: a preview at 1/8 for a
/// fraction of the full decode's time (its coefficient arrays are still allocated whole).
cjs_decoder *cjs_open(int fd, size_t size, int scale_num, int scale_denom, int draft,
                      char *error, size_t error_size, int *unsupported);

int cjs_output_width(const cjs_decoder *decoder);
int cjs_output_height(const cjs_decoder *decoder);
/// Rows decoded or skipped so far.
int cjs_output_row(const cjs_decoder *decoder);

/// Decodes the next `rows` rows into `destination`, `pitch` bytes apart. 0, or -1 (see cjs_error).
int cjs_read_rows(cjs_decoder *decoder, unsigned char *destination, size_t pitch, int rows);
/// Skips the next `rows` rows; their data is still decoded, so damage there is noticed. 0 or -1.
int cjs_skip_rows(cjs_decoder *decoder, int rows);
/// Skips what is left and reads the end of the file. 0 or -1.
int cjs_finish(cjs_decoder *decoder);

/// Why the last call failed: libjpeg's message. Warnings count as failures (a picture with grey
/// or garbled blocks), except "extraneous bytes before marker", which loses nothing.
const char *cjs_error(const cjs_decoder *decoder);

void cjs_close(cjs_decoder *decoder);

#endif
