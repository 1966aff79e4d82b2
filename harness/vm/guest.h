/*
 * The guest's end of the channel to the latlab that booted it. On x86:
 * qemu's isa-debugcon port (0xe9). Port writes need no interrupt and no
 * driver, so it works on any x86 kernel, where a second serial port
 * stalls under emulated PREEMPT_RT (its threaded interrupt gets disabled
 * as unhandled). On arm64: semihosting's SYS_WRITE to ":tt", which qemu
 * (-semihosting-config userspace=on) writes to its standard output, the
 * same kind of trap into the emulator (TCG only). What is said on it is
 * channel.h's.
 */
#ifndef LATLAB_GUEST_H
#define LATLAB_GUEST_H

#include <stddef.h>

#include "channel.h"
#include "log.h"

#define GUEST_PORT 0xe9

/* 0, or -errno (not root, no such port, no semihosting, another arch). */
int guest_open(void);
/* "LATLAB <verb> <args>" for a verb without bytes; args hold no newline. */
void guest_say(enum chan_verb verb, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* "LATLAB <verb> <len>" then len raw bytes, for a blob verb. */
void guest_blob(enum chan_verb verb, const void *data, size_t len);
/* Every regular file of a cell's directory, cell.ini last. 0 or -errno. */
int guest_send_dir(const char *dir);
/* For log_set_sink: the line goes to the host as "LATLAB log ...". */
void guest_log(const char *line);

#endif
