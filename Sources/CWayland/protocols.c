// The interface tables of each protocol (wayland-scanner's "private code"), generated into
// generated/ by the WaylandScanner plugin: SwiftPM compiles no C that a plugin generates, so
// this committed file includes it.
#include "generated/xdg-shell-protocol.inc"
#include "generated/presentation-time-protocol.inc"
#include "generated/viewporter-protocol.inc"
#include "generated/idle-inhibit-unstable-v1-protocol.inc"
#include "generated/xdg-output-unstable-v1-protocol.inc"
