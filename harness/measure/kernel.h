/* What kernel is running (struct kernel_info, match.h). */
#ifndef LATLAB_KERNEL_H
#define LATLAB_KERNEL_H

#include "match.h"

/*
 * Fill from uname, /sys/kernel/realtime, debugfs, /proc/cmdline, /boot —
 * or, as a testing aid, from $LATLAB_FAKE_KERNEL_RELEASE (and
 * $LATLAB_FAKE_KERNEL_PREEMPT) when set.
 */
void kernel_info_read(struct kernel_info *k);

#endif
