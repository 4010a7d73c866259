// Why this shim exists: Swift cannot import function-like or fourcc macros from
// drm_fourcc.h / drm_mode.h, so the few values carouseld needs are re-exposed
// as static inline getters with a cdrm_ prefix; and one loop Swift cannot write (volatile reads).
#ifndef CDRM_SHIM_H
#define CDRM_SHIM_H
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
// fbdev (/dev/fb0), the fallback for boards without KMS: ioctls and screen info structs.
#include <linux/fb.h>

static inline uint32_t cdrm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }
static inline uint32_t cdrm_mode_page_flip_event(void) { return DRM_MODE_PAGE_FLIP_EVENT; }
static inline uint32_t cdrm_mode_atomic_allow_modeset(void) { return DRM_MODE_ATOMIC_ALLOW_MODESET; }
static inline uint32_t cdrm_mode_atomic_nonblock(void) { return DRM_MODE_ATOMIC_NONBLOCK; }
static inline uint32_t cdrm_mode_atomic_test_only(void) { return DRM_MODE_ATOMIC_TEST_ONLY; }

// Reads one byte of every `page` bytes from `start` (volatile: the compiler keeps each read), so
// every page of a mapping is faulted in. A dumb buffer's memory is allocated at its first fault.
static inline void cdrm_fault_in(const void *start, size_t length, size_t page) {
    const volatile unsigned char *bytes = start;
    for (size_t offset = 0; offset < length; offset += page) (void)bytes[offset];
}
#endif
