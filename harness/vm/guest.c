#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#define HAVE_PORTS 1
#endif

#include "files.h"
#include "guest.h"
#include "model.h"

/* Log lines may come from any thread; a message is never split. */
static pthread_mutex_t channel_lock = PTHREAD_MUTEX_INITIALIZER;
static int channel_open;
/* the PCI serial port's tty, or a container's descriptor; -1: x86's port */
static int channel_fd = -1;

/* The first line of DIR/NAME (a sysfs attribute) into buf: 0 or -errno. */
static int read_word(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return file_first_line(path, buf, len);
}

/* The tty a PCI device drives (DEV/tty/NAME): 0, or -ENODEV. */
static int device_tty(const char *dev, char *name, size_t len)
{
	char path[PATH_MAX + 8];
	struct dirent *e;
	DIR *d;
	int rc = -ENODEV;

	snprintf(path, sizeof(path), "%s/tty", dev);
	d = opendir(path);
	if (!d)
		return -ENODEV;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && strlen(e->d_name) < len) {
			snprintf(name, len, "%s", e->d_name);
			rc = 0;
			break;
		}
	closedir(d);
	return rc;
}

int guest_find_port(const char *pci_devices, char *name, size_t len)
{
	char dev[PATH_MAX - 8], vendor[32], device[32];
	struct dirent *e;
	DIR *d = opendir(pci_devices);
	int rc = -ENODEV;

	if (!d)
		return -ENODEV;
	while (rc != 0 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(dev, sizeof(dev), "%s/%s", pci_devices, e->d_name);
		if (read_word(dev, "vendor", vendor, sizeof(vendor)) == 0 &&
		    read_word(dev, "device", device, sizeof(device)) == 0 &&
		    strcmp(vendor, GUEST_PCI_VENDOR) == 0 &&
		    strcmp(device, GUEST_PCI_DEVICE) == 0)
			rc = device_tty(dev, name, len);
	}
	closedir(d);
	return rc;
}

#ifndef HAVE_PORTS
/* The PCI serial port's tty, raw: bytes go out as they are. */
static int open_port(void)
{
	char name[64], path[96];
	struct termios t;
	int rc = guest_find_port("/sys/bus/pci/devices", name, sizeof(name));

	if (rc != 0)
		return rc;
	snprintf(path, sizeof(path), "/dev/%s", name);
	channel_fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (channel_fd < 0)
		return -errno;
	if (tcgetattr(channel_fd, &t) == 0) {
		cfmakeraw(&t);
		cfsetospeed(&t, B115200);
		tcsetattr(channel_fd, TCSANOW, &t);
	}
	return 0;
}
#endif

int guest_open_fd(int fd)
{
	if (fd < 0 || fcntl(fd, F_GETFD) < 0)
		return -EBADF;
	channel_fd = fd;
	channel_open = 1;
	return 0;
}

int guest_open(void)
{
#if defined(HAVE_PORTS)
	/* threads created later share the permission */
	if (ioperm(GUEST_PORT, 1, 1) != 0)
		return -errno;
	channel_open = 1;
	return 0;
#else
	int rc = open_port();

	channel_open = rc == 0;
	return rc;
#endif
}

/* len bytes to a descriptor: a write that fails ends it (the host then sees a stream cut short) */
static void put_fd(const void *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(channel_fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		data = (const char *)data + n;
		len -= (size_t)n;
	}
}

static void put(const void *data, size_t len)
{
	if (!channel_open)
		return;
	if (channel_fd >= 0) {
		put_fd(data, len);
		return;
	}
#if defined(HAVE_PORTS)
	/*
	 * rep outsb, saying that it reads memory: <sys/io.h>'s outsb does
	 * not, and the compiler then drops stores into a buffer "nobody reads"
	 * (a line's newline went missing that way).
	 */
	__asm__ __volatile__("cld; rep outsb"
			     : "+S"(data), "+c"(len)
			     : "d"((unsigned short)GUEST_PORT)
			     : "memory");
#endif
}

static void vline(enum chan_verb verb, const char *fmt, va_list ap)
{
	char buf[4096];
	int n = snprintf(buf, sizeof(buf), CHAN_MAGIC "%s ", chan_verbs[verb].name);

	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	/* one message, one line */
	for (char *p = buf + sizeof(CHAN_MAGIC) - 1; p < buf + n; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	buf[n++] = '\n';
	put(buf, (size_t)n);
}

void guest_say(enum chan_verb verb, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&channel_lock);
	va_start(ap, fmt);
	vline(verb, fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&channel_lock);
}

void guest_blob(enum chan_verb verb, const void *data, size_t len)
{
	char head[512];
	int n = snprintf(head, sizeof(head), CHAN_MAGIC "%s %zu\n",
			 chan_verbs[verb].name, len);

	pthread_mutex_lock(&channel_lock);
	put(head, (size_t)n);
	put(data, len);
	pthread_mutex_unlock(&channel_lock);
}

/*
 * A file as "LATLAB file NAME SIZE" and its bytes, streamed: a long cell's
 * samples.bin need not fit in memory twice. Exactly SIZE bytes follow the
 * header whatever happens, so the stream stays in step.
 */
static int send_file(const char *dir, const char *name)
{
	char path[4096], head[600], buf[65536];
	struct stat st;
	off_t left;
	int rc = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "rbe");
	if (!fp)
		return -errno;
	if (fstat(fileno(fp), &st) != 0) {
		rc = -errno;
		fclose(fp);
		return rc;
	}
	int n = snprintf(head, sizeof(head), CHAN_MAGIC "%s %s %lld\n",
			 chan_verbs[CHAN_FILE].name, name, (long long)st.st_size);
	pthread_mutex_lock(&channel_lock);
	put(head, (size_t)n);
	for (left = st.st_size; left > 0;) {
		size_t want = left < (off_t)sizeof(buf) ? (size_t)left : sizeof(buf);
		size_t got = rc ? 0 : fread(buf, 1, want, fp);

		if (got < want) {
			rc = -EIO;	/* shorter than it was: zeros keep the framing */
			memset(buf + got, 0, want - got);
		}
		put(buf, want);
		left -= (off_t)want;
	}
	pthread_mutex_unlock(&channel_lock);
	fclose(fp);
	return rc;
}

int guest_send_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0, have_ini = 0;

	if (!d)
		return -errno;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (e->d_type != DT_REG || strstr(e->d_name, ".tmp."))
			continue;
		if (strcmp(e->d_name, cell_file_name(CELLF_INI)) == 0) {
			have_ini = 1;
			continue;
		}
		rc = send_file(dir, e->d_name);
	}
	closedir(d);
	/* last, as on disk: a cell.ini says the rest is there */
	if (rc == 0 && have_ini)
		rc = send_file(dir, cell_file_name(CELLF_INI));
	return rc;
}

void guest_log(const char *line)
{
	guest_say(CHAN_LOG, "%s", line);
}

int64_t guest_host_seconds(void)
{
	char line[32];
	char *end;
	long long s;

	if (file_first_line("/sys/class/rtc/rtc0/since_epoch", line, sizeof(line)) != 0)
		return -1;
	errno = 0;
	s = strtoll(line, &end, 10);
	return errno || end == line || s < 0 ? -1 : (int64_t)s;
}
