// Why this shim exists: Swift cannot import function-like or fourcc macros from
// drm_fourcc.h / drm_mode.h, so the few values carouseld needs are re-exposed
// as static inline getters with a cdrm_ prefix; and a fork Swift cannot make safely (volatile
// reads in the child, nothing else).
#ifndef CDRM_SHIM_H
#define CDRM_SHIM_H
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>
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

// Reads one byte of every `page` bytes of each of `count` mappings (volatile: the compiler keeps
// each read): a dumb buffer gets its memory at its first page fault.
static inline void cdrm_fault_in(void *const *starts, const size_t *lengths, int count, size_t page) {
    for (int index = 0; index < count; index++) {
        const volatile unsigned char *bytes = starts[index];
        for (size_t offset = 0; offset < lengths[index]; offset += page) (void)bytes[offset];
    }
}

// cdrm_fault_in in a child process, which then exits; returns its pid, or -1 if fork failed.
// A fault holds its process's memory map lock: in a thread of the daemon, every mmap, brk or
// thread start of the others waited behind a slow one. The child's faults hold the child's lock,
// and fill the buffers for both. Between fork and _exit the child only reads memory, which is
// safe in a threaded parent.
static inline pid_t cdrm_fault_in_child(void *const *starts, const size_t *lengths, int count, size_t page) {
    pid_t pid = fork();
    if (pid == 0) {
        cdrm_fault_in(starts, lengths, count, page);
        _exit(0);
    }
    return pid;
}
#endif
