// Why this shim exists: libinput hands its messages to a handler that takes a va_list. Swift
// 6.0.3 (Debian 13's, which builds the arm64 package) crashes lowering a Swift closure of that
// type for aarch64, where va_list is a struct. The handler is C here; Swift gets each message
// already formatted.
#ifndef CLIBINPUTLOG_H
#define CLIBINPUTLOG_H

struct libinput;

/// Receives one message of libinput's: its priority (enum libinput_log_priority) and the text.
typedef void (*carouseld_libinput_log_sink)(int priority, const char *message);

/// Sends `li`'s messages to `sink` (one sink for the process: the daemon has one context).
void carouseld_libinput_log_to(struct libinput *li, carouseld_libinput_log_sink sink);

#endif
