// Why this target exists: libwayland-client from Debian, plus the client code of the protocols
// carouseld speaks (xdg-shell, presentation-time, viewporter, idle-inhibit, xdg-output), which
// the WaylandScanner plugin generates from wayland-protocols' XML at build time; and
// libxkbcommon, which reads the keymap the compositor (or a virtual keyboard) sends.
#ifndef CAROUSELD_WAYLAND_H
#define CAROUSELD_WAYLAND_H
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/memfd.h>
#include <string.h>
#include "../generated/xdg-shell-client-protocol.h"
#include "../generated/presentation-time-client-protocol.h"
#include "../generated/viewporter-client-protocol.h"
#include "../generated/idle-inhibit-unstable-v1-client-protocol.h"
#include "../generated/xdg-output-unstable-v1-client-protocol.h"

// The interface of a global carouseld binds, by its registry name; NULL for others. Swift
// cannot take the address of a C `const` global, and libwayland needs that very address.
static inline const struct wl_interface *carouseld_wl_interface(const char *name) {
    static const struct wl_interface *const known[] = {
        &wl_compositor_interface, &wl_shm_interface, &wl_seat_interface, &wl_output_interface,
        &xdg_wm_base_interface, &wp_presentation_interface, &zwp_idle_inhibit_manager_v1_interface,
        &zxdg_output_manager_v1_interface,
    };
    for (unsigned i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strcmp(known[i]->name, name) == 0) return known[i];
    }
    return NULL;
}

// memfd_create is declared only with _GNU_SOURCE, which Swift's Glibc module lacks: the shared
// memory of wl_shm buffers, an anonymous file the compositor maps.
static inline int carouseld_memfd(const char *name) {
    return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC);
}
#endif
