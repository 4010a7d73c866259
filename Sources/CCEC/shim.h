// Why this shim exists: the kernel's HDMI-CEC API (linux/cec.h) is ioctl calls, and ioctl is
// variadic and its request numbers (_IOWR macros) cannot be imported by Swift. Each helper
// makes one call and returns ioctl's result (0, or -1 with errno set); the message building
// and parsing stays in Swift (carouseld's CECMessage).
#ifndef CAROUSELD_CEC_SHIM_H
#define CAROUSELD_CEC_SHIM_H
#include <linux/cec.h>
#include <sys/ioctl.h>
#include <string.h>

// The adapter's driver and name ("vivid", "vivid-000-vid-out0") and what it can do.
static inline int carouseld_cec_capabilities(int fd, struct cec_caps *caps) {
    return ioctl(fd, CEC_ADAP_G_CAPS, caps);
}

// The DRM card and connector the adapter belongs to, where the driver says (CEC_CAP_CONNECTOR_INFO).
static inline int carouseld_cec_connector(int fd, struct cec_connector_info *info) {
    return ioctl(fd, CEC_ADAP_G_CONNECTOR_INFO, info);
}

// The physical address the HDMI sink gave the adapter (from its EDID); 0xffff while none.
static inline int carouseld_cec_physical_address(int fd, unsigned short *address) {
    __u16 value = CEC_PHYS_ADDR_INVALID;
    int result = ioctl(fd, CEC_ADAP_G_PHYS_ADDR, &value);
    *address = value;
    return result;
}

// The logical addresses claimed now (bit n: address n), 0 while none is.
static inline int carouseld_cec_logical_address_mask(int fd, unsigned short *mask) {
    struct cec_log_addrs addresses;
    memset(&addresses, 0, sizeof addresses);
    int result = ioctl(fd, CEC_ADAP_G_LOG_ADDRS, &addresses);
    *mask = addresses.log_addr_mask;
    return result;
}

// Asks the kernel to claim one Playback device address (4, 8, 11 or 9) named `osd_name`, CEC 2.0.
// On a non-blocking descriptor it returns at once and the kernel claims in the background, and
// again whenever the physical address comes back (a TV unplugged and plugged in again).
// EBUSY: addresses are already configured (by an earlier run: the kernel keeps them).
static inline int carouseld_cec_claim_playback(int fd, const char *osd_name) {
    struct cec_log_addrs addresses;
    memset(&addresses, 0, sizeof addresses);
    addresses.cec_version = CEC_OP_CEC_VERSION_2_0;
    addresses.vendor_id = CEC_VENDOR_ID_NONE;
    addresses.num_log_addrs = 1;
    addresses.log_addr_type[0] = CEC_LOG_ADDR_TYPE_PLAYBACK;
    addresses.primary_device_type[0] = CEC_OP_PRIM_DEVTYPE_PLAYBACK;
    addresses.all_device_types[0] = CEC_OP_ALL_DEVTYPE_PLAYBACK;
    strncpy(addresses.osd_name, osd_name, sizeof addresses.osd_name - 1);
    return ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &addresses);
}

// This descriptor as initiator only: the kernel's core answers what a Playback device must
// (physical address, OSD name, version) and Feature Abort for the rest.
static inline int carouseld_cec_be_initiator(int fd) {
    __u32 mode = CEC_MODE_INITIATOR | CEC_MODE_NO_FOLLOWER;
    return ioctl(fd, CEC_S_MODE, &mode);
}

// Queues `message` (already addressed and built); on a non-blocking descriptor the result, and
// the reply when `message->reply` names one, come back through carouseld_cec_receive with the
// `sequence` this call writes into `message`.
static inline int carouseld_cec_transmit(int fd, struct cec_msg *message) {
    return ioctl(fd, CEC_TRANSMIT, message);
}

// The next transmit result or reply; EAGAIN when none is queued (non-blocking descriptor).
static inline int carouseld_cec_receive(int fd, struct cec_msg *message) {
    memset(message, 0, sizeof *message);
    return ioctl(fd, CEC_RECEIVE, message);
}
#endif
