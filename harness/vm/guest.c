#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	guest_say(CHAN_LOG, "%s", line);
}
