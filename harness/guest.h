/*
 * The channel between a latlab inside a qemu guest and the latlab that
 * booted it: the guest writes, the host reads. It is qemu's isa-debugcon
 * port (0xe9): port writes need no interrupt and no driver, so it works
 * on any x86 kernel, where a second serial port stalls under emulated
 * PREEMPT_RT (its threaded interrupt gets disabled as unhandled).
 *
 * The stream is lines "LATLAB <verb> <args>", some followed by raw bytes:
 *   LATLAB hello HOST RELEASE          the guest latlab is up
 *   LATLAB sysinfo SIZE \n BYTES        the guest's sysinfo.ini
 *   LATLAB log TEXT                     a line of the guest's log
 *   LATLAB start CELL                   a cell begins
 *   LATLAB file NAME SIZE \n BYTES      a file of the finished cell's directory
 *   LATLAB row SIZE \n BYTES            its cells.csv rows
 *   LATLAB cell CELL STATUS REASON...   the cell is done (its files came first)
 *   LATLAB done EXIT-STATUS             nothing more will come
 * Anything else on the port (firmware chatter) is ignored.
 */
#ifndef LATLAB_GUEST_H
#define LATLAB_GUEST_H

#include <stddef.h>

#include "log.h"

#define GUEST_PORT 0xe9
#define GUEST_MAGIC "LATLAB "

/* Guest side. 0, or -errno (not root, not x86, no such port). */
int guest_open(void);
/* A "LATLAB ..." line; the text has no newline. */
void guest_line(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* A header line then len raw bytes: "LATLAB <what> <len>". */
void guest_blob(const char *what, const void *data, size_t len);
/* Every regular file of a cell's directory, cell.ini last. 0 or -errno. */
int guest_send_dir(const char *dir);
/* For log_set_sink: the line goes to the host as "LATLAB log ...". */
void guest_log(const char *line);

#endif
