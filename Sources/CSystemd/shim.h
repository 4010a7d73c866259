// Why this shim exists: exposes libsystemd's sd_notify so the notify protocol
// is never written by hand.
#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#endif
