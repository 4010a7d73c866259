// Why this shim exists: one module for the well-kept image libraries carouseld
// decodes and composites with, so no codec or blitter is written by hand.
#ifndef CIMAGING_SHIM_H
#define CIMAGING_SHIM_H
#include <stdio.h>
#include <turbojpeg.h>
#include <png.h>
#include <webp/decode.h>
#include <webp/demux.h>    /* an animated WebP's first frame */
#include <webp/encode.h>   /* the tests make WebP files with libwebp itself */
#include <libexif/exif-data.h>
#include <pixman.h>
#include <malloc.h>         /* mallopt, malloc_trim: the codecs' memory given back (DecodeMemory.swift) */
#endif
