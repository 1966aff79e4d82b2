/*
 * What latlab changes on the machine outside its own process for a cell —
 * a cpuset, an interrupt's affinity, an idle state's switch — is written
 * to a journal on disk before each change and undone in reverse: at the
 * cell's end (after Ctrl-C too), and by the next latlab after a SIGKILL or
 * a crash (undo_stale). A reboot undoes it all itself, and the journal
 * lives in /run, which a reboot empties.
 *
 * The journal, DIR/undo-PID.txt, held under flock(LOCK_EX) by its owner
 * for its life (a journal nobody holds is stale), one change a line,
 * fields separated by tabs:
 *
 *   latlab-undo 1                    its first line
 *   write PATH VALUE                 undone by writing VALUE to PATH
 *   cgroup PATH                      undone by moving PATH's tasks to its
 *                                    parent and removing PATH
 *
 * Only paths under the journal's roots are replayed (undo_roots: cgroups,
 * /proc/irq, the CPUs' sysfs; a unit test names its own).
 */
#ifndef LATLAB_UNDO_H
#define LATLAB_UNDO_H

#include <limits.h>
#include <stddef.h>

/* Where the journals live: /run/latlab. */
#define UNDO_DIR "/run/latlab"

struct undo {
	int fd;				/* the journal, locked; -1: not open */
	char path[PATH_MAX];
	const char *const *roots;	/* NULL-terminated prefixes replay accepts */
	int changes;			/* lines after the first */
};

/* /sys/fs/cgroup/, /proc/irq/, /sys/devices/system/cpu/. */
extern const char *const undo_roots[];

/* u closed (fd -1), so undo_finish on it does nothing. */
void undo_init(struct undo *u);

/*
 * DIR/undo-PID.txt made (DIR too, mode 0700) and locked; roots as above.
 * 0 or -errno.
 */
int undo_open(struct undo *u, const char *dir, const char *const *roots);

/*
 * `value` written to `path` (one write, as echo does), its current first
 * line journalled first as what undoes it; `restore` instead when not
 * NULL (a file that takes deltas, as cgroup.subtree_control's "+cpuset").
 * 0 or -errno (nothing written when the journal could not be; -EBUSY:
 * another latlab holds the path, undo_holder).
 */
int undo_set(struct undo *u, const char *path, const char *value, const char *restore);

/*
 * Does another latlab still running hold `path` for its cell (a live
 * journal beside u's that writes it back)? Its pid, or 0. undo_set
 * refuses such a path (-EBUSY): one rule for every setting two runs may
 * share.
 */
int undo_holder(const struct undo *u, const char *path);

/* The cgroup directory `path` journalled, then made. 0 or -errno (-EEXIST too). */
int undo_mkdir_cgroup(struct undo *u, const char *path);

/*
 * Every task the tasks file `from` lists (v1 `tasks`, v2 `cgroup.procs`)
 * written to the tasks file `to`, one by one — but this process's own
 * threads when keep_own: how a cgroup is emptied into its parent when
 * undone, and how isolation sweeps the machine into housekeeping. The
 * number moved; those that could not move (not those gone meanwhile)
 * added to *stuck.
 */
int undo_move_tasks(const char *from, const char *to, int keep_own, int *stuck);

/*
 * Every change undone, the last first; the journal removed. The number
 * of changes that could not be undone; each said in `report` ("; "
 * between them, cut to len).
 */
int undo_finish(struct undo *u, char *report, size_t len);

/*
 * The journals in `dir` whose owner is gone, replayed and removed; each
 * replay said through say(arg, line). The number replayed, or -errno when
 * dir cannot be read (a missing dir is 0).
 */
int undo_stale(const char *dir, const char *const *roots,
	       void (*say)(void *arg, const char *line), void *arg);

#endif
