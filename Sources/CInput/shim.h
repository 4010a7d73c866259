// Why this shim exists: one module that brings libinput and libudev to Swift (the backends'
// input devices and udev's hotplug events). The Linux headers and the evdev key codes are
// CLinux's, which links nothing.
#ifndef CINPUT_SHIM_H
#define CINPUT_SHIM_H
#include <libinput.h>
#include <libudev.h>

#endif
