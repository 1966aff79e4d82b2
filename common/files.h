/* Small file and program lookups both programs use. */
#ifndef LATLAB_FILES_H
#define LATLAB_FILES_H

#include <stddef.h>
#include <stdio.h>

/*
 * The first line of a file, without its newline ("" for an empty file).
 * 0 or -errno (buf is then "").
 */
int file_first_line(const char *path, char *buf, size_t len);

/*
 * A log's last line that says something, for an error message: the last
 * that is not blank and does not start with '#' (a note of latlab's own),
 * or, where prefer is given, the last that starts with it if any does
 * (podman's "Error: "). Without its newline, cut to len; "" when none.
 */
void file_last_line(const char *path, const char *prefer, char *out, size_t len);

/*
 * `value` written to path in one write() (opened as `echo -n value > path`
 * opens it): how sysfs, procfs and cgroup files take a setting. 0 or -errno.
 */
int file_write_string(const char *path, const char *value);

/* The directory the running program lives in (/proc/self/exe). 0 or -errno. */
int self_dir(char *buf, size_t len);

/*
 * DIR/NAME for the first DIR of $PATH (or /usr/local/bin:/usr/bin when
 * PATH is unset) where NAME is executable: 0 or -ENOENT. A NAME with a
 * slash is a path, taken as it is (as execvp takes it): 0 or access()'s
 * -errno.
 */
int path_lookup(const char *name, char *buf, size_t len);

/*
 * Open path for reading when it is a regular file of at most max bytes:
 * a FIFO, a device or a directory put where a file belongs is refused at
 * once, never waited on or read forever. The descriptor (O_CLOEXEC), or
 * -errno (-EISDIR, -EINVAL: not a regular file, -EFBIG) with
 * "PATH: reason" in err.
 */
int file_open_regular(const char *path, long long max, char *err, size_t len);

/* The same as a stdio stream for reading ("re"), or NULL with errno set. */
FILE *file_fopen_regular(const char *path, long long max, char *err, size_t len);

/*
 * The value of `key` in [section] of an INI file latlab wrote ("key =
 * value" lines), into out; "" when the file, the section or the key is
 * not there. Reads a regular file of at most 1 MiB only.
 */
void file_ini_value(const char *path, const char *section, const char *key,
		    char *out, size_t len);

/*
 * The whole of [section] of such a file, its "key = value" lines joined
 * by ", " ("type = softirq, connections = 1024"), into out (cut at len);
 * "" when the file or the section is not there.
 */
void file_ini_section(const char *path, const char *section, char *out, size_t len);

/*
 * The filesystem an absolute path is on, from /proc/self/mountinfo: the
 * mount whose point is the path's longest leading directory, its source
 * ("/dev/vda", "rootfs", "tmpfs") and type ("ext4"). Nothing is opened
 * at path: it need not exist. 0, or -errno (-EINVAL: not absolute).
 */
int file_mount_of(const char *path, char *source, size_t slen, char *fstype, size_t flen);

/*
 * Is a mount's source (file_mount_of's) a modelled disk: the kernel's
 * null_blk (/dev/nullbN), whose requests a timer of the kernel's own
 * completes — no device, so a wait for it is the kernel's time on any clock?
 */
int file_dev_modelled(const char *source);

/*
 * Append the bytes of the regular file src to out (a FIFO, a device or a
 * directory refused at once: file_open_regular). 0 or -errno (-EIO: a
 * short write).
 */
int file_append(FILE *out, const char *src);

#endif
