/* Writes the committed image seeds of Fuzz/corpus/{jpeg,png,webp}: small pictures (< 4 KB) in the
   variants the decoders branch on. Run from Fuzz/ (scripts/fuzz does not need it; the seeds are
   committed):
     cc make-image-seeds.c -o /tmp/make-image-seeds -lturbojpeg -lpng -lwebp && /tmp/make-image-seeds */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <webp/encode.h>

static void save(const char *path, const unsigned char *bytes, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, size, f) != size) { perror(path); exit(1); }
    fclose(f);
    printf("%s: %zu bytes\n", path, size);
}

static unsigned char *picture(int w, int h, int channels) {
    unsigned char *p = malloc((size_t)w * h * channels);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < channels; c++)
                p[(y * w + x) * channels + c] = (unsigned char)(c == 3 ? 40 + 200 * x / w : (x * 37 + y * 11 + c * 80) & 0xFF);
    return p;
}

/* EXIF APP1 segment with one Orientation tag (big-endian TIFF). */
static size_t exif_segment(unsigned char *out, int orientation) {
    static const unsigned char head[] = {0xFF, 0xE1, 0, 34, 'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8,
                                         0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    memcpy(out, head, sizeof head);
    out[27] = (unsigned char)orientation;
    return sizeof head;
}

static void jpeg(const char *path, int w, int h, int pf, int subsamp, int flags, int orientation) {
    tjhandle tj = tjInitCompress();
    unsigned char *pixels = picture(w, h, tjPixelSize[pf]);
    unsigned char *out = NULL;
    unsigned long size = 0;
    if (tjCompress2(tj, pixels, w, 0, h, pf, &out, &size, subsamp, 70, flags) != 0) {
        fprintf(stderr, "%s: %s\n", path, tjGetErrorStr2(tj));
        exit(1);
    }
    if (orientation) {
        unsigned char *with = malloc(size + 64);
        memcpy(with, out, 2);
        size_t n = exif_segment(with + 2, orientation);
        memcpy(with + 2 + n, out + 2, size - 2);
        save(path, with, size + n);
        free(with);
    } else {
        save(path, out, size);
    }
    tjFree(out);
    free(pixels);
    tjDestroy(tj);
}

static void png(const char *path, int w, int h, png_uint_32 format, int channels) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = w;
    image.height = h;
    image.format = format;
    unsigned char *pixels = picture(w, h, channels);
    png_alloc_size_t size = 0;
    png_image_write_to_memory(&image, NULL, &size, 0, pixels, 0, NULL);
    unsigned char *out = malloc(size);
    if (!png_image_write_to_memory(&image, out, &size, 0, pixels, 0, NULL)) {
        fprintf(stderr, "%s: %s\n", path, image.message);
        exit(1);
    }
    save(path, out, size);
    free(out);
    free(pixels);
}

static void webp(const char *path, int w, int h, int alpha, int lossless) {
    unsigned char *pixels = picture(w, h, alpha ? 4 : 3), *out = NULL;
    size_t size = lossless ? (alpha ? WebPEncodeLosslessRGBA(pixels, w, h, w * 4, &out) : WebPEncodeLosslessRGB(pixels, w, h, w * 3, &out))
                           : (alpha ? WebPEncodeRGBA(pixels, w, h, w * 4, 60, &out) : WebPEncodeRGB(pixels, w, h, w * 3, 60, &out));
    if (!size) { fprintf(stderr, "%s: WebP encoding failed\n", path); exit(1); }
    save(path, out, size);
    WebPFree(out);
    free(pixels);
}

int main(void) {
    jpeg("corpus/jpeg/rgb-420.jpg", 24, 16, TJPF_RGB, TJSAMP_420, 0, 0);
    jpeg("corpus/jpeg/rgb-444-progressive.jpg", 16, 16, TJPF_RGB, TJSAMP_444, TJFLAG_PROGRESSIVE, 0);
    jpeg("corpus/jpeg/gray.jpg", 16, 8, TJPF_GRAY, TJSAMP_GRAY, 0, 0);
    jpeg("corpus/jpeg/cmyk.jpg", 8, 8, TJPF_CMYK, TJSAMP_444, 0, 0);
    jpeg("corpus/jpeg/exif-rotated.jpg", 16, 24, TJPF_RGB, TJSAMP_422, 0, 6);
    png("corpus/png/rgb.png", 12, 8, PNG_FORMAT_RGB, 3);
    png("corpus/png/rgba.png", 8, 8, PNG_FORMAT_RGBA, 4);
    png("corpus/png/gray.png", 8, 6, PNG_FORMAT_GRAY, 1);
    png("corpus/png/gray-alpha-16bit.png", 6, 6, PNG_FORMAT_LINEAR_Y_ALPHA, 4);
    webp("corpus/webp/lossy.webp", 16, 16, 0, 0);
    webp("corpus/webp/lossy-alpha.webp", 16, 16, 1, 0);
    webp("corpus/webp/lossless.webp", 12, 8, 0, 1);
    webp("corpus/webp/lossless-alpha.webp", 8, 8, 1, 1);
    return 0;
}
