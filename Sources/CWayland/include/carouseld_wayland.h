// Why this target exists: libwayland-client from Debian, plus the client code of the protocols
// carouseld speaks (xdg-shell, presentation-time, viewporter, idle-inhibit, xdg-output), which
// the WaylandScanner plugin generates from wayland-protocols' XML at build time.
#ifndef CAROUSELD_WAYLAND_H
#define CAROUSELD_WAYLAND_H
#include <wayland-client.h>
#include "../generated/xdg-shell-client-protocol.h"
#include "../generated/presentation-time-client-protocol.h"
#include "../generated/viewporter-client-protocol.h"
#include "../generated/idle-inhibit-unstable-v1-client-protocol.h"
#include "../generated/xdg-output-unstable-v1-client-protocol.h"
#endif
