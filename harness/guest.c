#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#define HAVE_PORTS 1
#endif

#include "guest.h"

/* Log lines may come from any thread; a message is never split. */
static pthread_mutex_t channel_lock = PTHREAD_MUTEX_INITIALIZER;
static int channel_open;

int guest_open(void)
{
#ifdef HAVE_PORTS
	/* threads created later share the permission */
	if (ioperm(GUEST_PORT, 1, 1) != 0)
		return -errno;
	channel_open = 1;
	return 0;
#else
	return -ENOSYS;
#endif
}

static void put(const void *data, size_t len)
{
#ifdef HAVE_PORTS
	/*
	 * rep outsb, saying that it reads memory: <sys/io.h>'s outsb does
	 * not, and the compiler then drops stores into a buffer "nobody reads"
	 * (a line's newline went missing that way).
	 */
	if (channel_open)
		__asm__ __volatile__("cld; rep outsb"
				     : "+S"(data), "+c"(len)
				     : "d"((unsigned short)GUEST_PORT)
				     : "memory");
#else
	(void)data;
	(void)len;
#endif
}

static void vline(const char *fmt, va_list ap)
{
	char buf[4096];
	int n = snprintf(buf, sizeof(buf), GUEST_MAGIC);

	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	/* one message, one line */
	for (char *p = buf + sizeof(GUEST_MAGIC) - 1; p < buf + n; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	buf[n++] = '\n';
	put(buf, (size_t)n);
}

void guest_line(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&channel_lock);
	va_start(ap, fmt);
	vline(fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&channel_lock);
}

static void blob_locked(const char *what, const void *data, size_t len)
{
	char head[512];
	int n = snprintf(head, sizeof(head), GUEST_MAGIC "%s %zu\n", what, len);

	put(head, (size_t)n);
	put(data, len);
}

void guest_blob(const char *what, const void *data, size_t len)
{
	pthread_mutex_lock(&channel_lock);
	blob_locked(what, data, len);
	pthread_mutex_unlock(&channel_lock);
}

static int send_file(const char *dir, const char *name)
{
	char path[4096], what[600];
	size_t len = 0, cap = 0;
	char *data = NULL;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "rbe");
	if (!fp)
		return -errno;
	for (;;) {
		if (len == cap) {
			char *more = realloc(data, cap ? cap * 2 : 65536);

			if (!more) {
				free(data);
				fclose(fp);
				return -ENOMEM;
			}
			data = more;
			cap = cap ? cap * 2 : 65536;
		}
		size_t n = fread(data + len, 1, cap - len, fp);
		if (n == 0)
			break;
		len += n;
	}
	int bad = ferror(fp);
	fclose(fp);
	if (!bad) {
		snprintf(what, sizeof(what), "file %s", name);
		guest_blob(what, data, len);
	}
	free(data);
	return bad ? -EIO : 0;
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
		if (strcmp(e->d_name, "cell.ini") == 0) {
			have_ini = 1;
			continue;
		}
		rc = send_file(dir, e->d_name);
	}
	closedir(d);
	/* last, as on disk: a cell.ini says the rest is there */
	if (rc == 0 && have_ini)
		rc = send_file(dir, "cell.ini");
	return rc;
}

void guest_log(const char *line)
{
	guest_line("log %s", line);
}
