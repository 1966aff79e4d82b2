/*
 * The guest's end of the channel to the latlab that booted it. On x86:
 * qemu's isa-debugcon port (0xe9). Port writes need no interrupt and no
 * driver, so it works on any x86 kernel, where a second ISA serial port
 * stalls under emulated PREEMPT_RT (its threaded interrupt gets disabled
 * as unhandled). Elsewhere (arm64): qemu's pci-serial, a 16550 on the
 * machine's PCI bus, driven by the kernel's built-in 8250_pci and written
 * raw through its tty. Either device only carries bytes out: nothing on
 * it lets the guest reach the host (docs/boards.md, "The guest is
 * untrusted"). In a container (runner = container) the channel is a pipe
 * its engine hands in, read by the host with the same rules. What is said
 * on it is channel.h's.
 */
#ifndef LATLAB_GUEST_H
#define LATLAB_GUEST_H

#include <stddef.h>
#include <stdint.h>

#include "channel.h"
#include "log.h"

#define GUEST_PORT 0xe9
/* qemu's pci-serial: Red Hat's PCI vendor id, its serial device */
#define GUEST_PCI_VENDOR "0x1b36"
#define GUEST_PCI_DEVICE "0x0002"

/* 0, or -errno (not root, no such port or device). */
int guest_open(void);
/*
 * The channel on an open descriptor instead: a container's latlab writes
 * it to the pipe its engine passed in (runner = container). 0, or -EBADF.
 */
int guest_open_fd(int fd);
/*
 * The tty name (e.g. "ttyS0") of qemu's pci-serial among the PCI devices
 * of pci_devices (/sys/bus/pci/devices): 0, or -ENODEV.
 */
int guest_find_port(const char *pci_devices, char *name, size_t len);
/* "LATLAB <verb> <args>" for a verb without bytes; args hold no newline. */
void guest_say(enum chan_verb verb, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* "LATLAB <verb> <len>" then len raw bytes, for a blob verb. */
void guest_blob(enum chan_verb verb, const void *data, size_t len);
/* Every regular file of a cell's directory, cell.ini last. 0 or -errno. */
int guest_send_dir(const char *dir);
/* For log_set_sink: the line goes to the host as "LATLAB log ...". */
void guest_log(const char *line);
/*
 * The host's time, whole seconds: the guest's RTC, which qemu keeps on
 * the host's clock (-rtc clock=host, its default) even when the guest's
 * own clock counts instructions. -1: the guest has no RTC.
 */
int64_t guest_host_seconds(void);

#endif
