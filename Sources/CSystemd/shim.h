// Why this shim exists: exposes libsystemd's sd_notify so the notify protocol is never written
// by hand, and sd-journal: proof-of-play records are sent with sd_journal_sendv (sd_journal_send
// is variadic, which Swift cannot call) and read back with sd_journal_open*.
#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#endif
