#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#define HAVE_PORTS 1
#elif defined(__aarch64__)
#define HAVE_SEMIHOSTING 1
#endif

#include "guest.h"

/* Log lines may come from any thread; a message is never split. */
static pthread_mutex_t channel_lock = PTHREAD_MUTEX_INITIALIZER;
static int channel_open;

#ifdef HAVE_SEMIHOSTING
/* Arm semihosting's calls used here, and the trap that makes one. */
enum { SEMI_OPEN = 0x01, SEMI_WRITE = 0x05 };
#define SEMI_MODE_W 4		/* fopen's "w": ":tt" is then qemu's stdout */

static long semi_handle = -1;

static long semihost(long op, const void *args)
{
	register long x0 __asm__("x0") = op;
	register const void *x1 __asm__("x1") = args;

	/* "memory": the call reads the block and the bytes it points to */
	__asm__ __volatile__("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
	return x0;
}

static sigjmp_buf no_semihosting;

static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(no_semihosting, 1);
}

/*
 * Open ":tt". Outside qemu, or in a qemu without semihosting for user
 * code, the trap is an undefined instruction: SIGILL, caught, -ENOSYS.
 */
static int semi_open(void)
{
	static const char tt[] = ":tt";
	const long args[3] = { (long)tt, SEMI_MODE_W, (long)sizeof(tt) - 1 };
	struct sigaction ill = { .sa_handler = on_sigill }, old;
	volatile long h = -1;

	sigemptyset(&ill.sa_mask);
	sigaction(SIGILL, &ill, &old);
	if (sigsetjmp(no_semihosting, 1) == 0)
		h = semihost(SEMI_OPEN, args);
	sigaction(SIGILL, &old, NULL);
	if (h < 0)
		return -ENOSYS;
	semi_handle = h;
	return 0;
}
#endif

int guest_open(void)
{
#if defined(HAVE_PORTS)
	/* threads created later share the permission */
	if (ioperm(GUEST_PORT, 1, 1) != 0)
		return -errno;
	channel_open = 1;
	return 0;
#elif defined(HAVE_SEMIHOSTING)
	int rc = semi_open();

	channel_open = rc == 0;
	return rc;
#else
	return -ENOSYS;
#endif
}

static void put(const void *data, size_t len)
{
	if (!channel_open)
		return;
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
#elif defined(HAVE_SEMIHOSTING)
	/* SYS_WRITE returns what it did not write; a call that writes
	 * nothing ends it (the host then sees a stream cut short) */
	while (len > 0) {
		const long args[3] = { semi_handle, (long)data, (long)len };
		long left = semihost(SEMI_WRITE, args);

		if (left < 0 || (size_t)left >= len)
			break;
		data = (const char *)data + (len - (size_t)left);
		len = (size_t)left;
	}
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
