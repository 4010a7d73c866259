// Why this shim exists: one module that brings libinput and libudev to Swift,
// together with the Linux fd headers Glibc's Swift overlay does not expose
// (epoll, timerfd, eventfd, signalfd, inotify) and the evdev key codes.
#ifndef CINPUT_SHIM_H
#define CINPUT_SHIM_H
#include <libinput.h>
#include <libudev.h>
#include <linux/input-event-codes.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <signal.h>
#endif
