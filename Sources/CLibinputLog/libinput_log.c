#include <stdarg.h>
#include <stdio.h>
#include <libinput.h>
#include "CLibinputLog.h"

static carouseld_libinput_log_sink log_sink;

static void format_and_send(struct libinput *li, enum libinput_log_priority priority,
                            const char *format, va_list args) {
    (void)li;
    char message[512];
    vsnprintf(message, sizeof message, format, args);
    if (log_sink) log_sink((int)priority, message);
}

void carouseld_libinput_log_to(struct libinput *li, carouseld_libinput_log_sink sink) {
    log_sink = sink;
    libinput_log_set_handler(li, format_and_send);
}
