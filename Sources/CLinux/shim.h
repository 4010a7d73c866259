// Why this shim exists: the Linux headers Glibc's Swift overlay does not expose (epoll, timerfd,
// eventfd, signalfd, inotify, prctl, adjtimex, SO_PEERCRED and SCM_RIGHTS) and the evdev key
// codes, with the few helpers Swift cannot write itself (variadic calls, macros). Headers only:
// this module links no library, so the event loop's layers (Core, Pixels, Config) need it and
// not libinput or libudev (those are CInput's).
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
#include <linux/input-event-codes.h>
#include <errno.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/timex.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// prctl is variadic, so Swift cannot call it: names the calling thread (15 bytes kept),
// so `top -H` and crash reports tell the decode thread apart.
static inline int carouseld_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, name, 0, 0, 0);
}

// gettid needs _GNU_SOURCE, which Swift's Glibc module is not built with: makes the calling
// thread (alone: Linux keeps nice per thread) `steps` nicer than it is, at most 19.
static inline int carouseld_renice_this_thread(int steps) {
    id_t tid = (id_t)syscall(SYS_gettid);
    errno = 0;
    int now = getpriority(PRIO_PROCESS, tid);
    if (now == -1 && errno != 0) return -1;
    return setpriority(PRIO_PROCESS, tid, now + steps > 19 ? 19 : now + steps);
}
// struct timex's status bits and the TIME_* states are macros Swift cannot import: 1 when the
// kernel says the clock is synchronised (NTP), 0 when not, -1 when adjtimex is refused (a
// unit with ProtectClock=yes) or fails.
static inline int carouseld_clock_synchronised(void) {
    struct timex tx = {0};
    int state = adjtimex(&tx);
    if (state < 0) return -1;
    return state != TIME_ERROR && !(tx.status & STA_UNSYNC);
}

// struct ucred needs _GNU_SOURCE, which Swift's Glibc module is not built with, so the kernel's
// layout (pid, uid, gid; fixed ABI) is spelled out: the uid and pid of the process at the other
// end of a Unix socket (SO_PEERCRED), for the control socket's log.
static inline int carouseld_peer_credentials(int fd, unsigned int *uid, int *pid) {
    struct { pid_t pid; uid_t uid; gid_t gid; } cred;
    socklen_t length = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) return -1;
    *uid = cred.uid;
    *pid = cred.pid;
    return 0;
}

// A descriptor passed over a Unix socket (SCM_RIGHTS) beside a few bytes: `ctl screenshot`
// opens the file and hands it to the daemon, which writes into it with the client's rights.
// CMSG_* are macros Swift cannot call. Sends `length` bytes with `fd`; returns send's result.
static inline ssize_t carouseld_send_with_fd(int socket, const void *bytes, size_t length, int fd) {
    char control[CMSG_SPACE(sizeof(int))] = {0};
    struct iovec io = { .iov_base = (void *)bytes, .iov_len = length };
    struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    return sendmsg(socket, &message, MSG_NOSIGNAL);
}

// Reads up to `length` bytes; a descriptor that came with them is stored in *fd (close-on-
// exec), else *fd is -1. Returns recvmsg's result.
static inline ssize_t carouseld_receive_with_fd(int socket, void *bytes, size_t length, int *fd) {
    char control[CMSG_SPACE(sizeof(int))] = {0};
    struct iovec io = { .iov_base = bytes, .iov_len = length };
    struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
    *fd = -1;
    ssize_t count = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); count >= 0 && header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS && header->cmsg_len >= CMSG_LEN(sizeof(int))) {
            memcpy(fd, CMSG_DATA(header), sizeof(int));
        }
    }
    return count;
}

#endif
