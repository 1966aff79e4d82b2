/*
 * queued-writer: the storage pattern of the data logger that reached
 * 575 MB/s only once its writes left the real-time loop. Each period the
 * step fills a block (the cell's size) and hands it to a writer thread
 * through a ring of slots — no lock, one eventfd write to wake the writer
 * — and the writer, at normal priority, writes it to the file (with
 * fdatasync when asked). The step never waits for the disk: when every
 * slot is full (the writer fell behind) it returns -ENOBUFS, an error of
 * the period that latlab counts, and the block is lost as a logger's would be.
 *
 *   [workload.logger]
 *   type = plugin
 *   path = build/plugins/queued_writer.so
 *   file = /var/tmp/logger.dat
 *   slots = 64
 *   sync = fdatasync
 *
 * Options: file (default /var/tmp/latlab-queued.dat, rewritten from its
 * start when it passes 64 MiB), slots (2-4096, default 64), sync (none or
 * fdatasync, default none).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "latlab/plugin.h"

#define WRAP (64LL << 20)	/* the file's bytes before it starts over */

struct queue {
	int fd, wake, sync;
	size_t block;
	unsigned slots;
	unsigned char *buf;		/* slots x block */
	_Atomic unsigned head, tail;	/* filled by the step, emptied by the writer */
	_Atomic int stop;
	long long offset;
	unsigned long long seq;
	int write_errno;		/* the writer's first error, said at teardown */
	pthread_t writer;
};

static const char *option(const struct latlab_option *opt, int n, const char *key,
			  const char *def)
{
	for (int i = 0; i < n; i++)
		if (strcmp(opt[i].key, key) == 0)
			return opt[i].value;
	return def;
}

static int parse(const struct latlab_option *opt, int n, unsigned *slots, int *sync,
		 const char **bad, char *why, size_t len)
{
	char *end;
	long v;

	for (int i = 0; i < n; i++) {
		*bad = opt[i].key;
		if (strcmp(opt[i].key, "file") == 0)
			continue;
		if (strcmp(opt[i].key, "slots") == 0) {
			errno = 0;
			v = strtol(opt[i].value, &end, 10);
			if (end == opt[i].value || *end || errno || v < 2 || v > 4096)
				return snprintf(why, len, "'%s' is not 2-4096", opt[i].value), -EINVAL;
			continue;
		}
		if (strcmp(opt[i].key, "sync") == 0) {
			if (strcmp(opt[i].value, "none") != 0 && strcmp(opt[i].value, "fdatasync") != 0)
				return snprintf(why, len, "'%s' is not none or fdatasync", opt[i].value),
				       -EINVAL;
			continue;
		}
		return snprintf(why, len, "unknown option (queued-writer takes file, slots, sync)"),
		       -EINVAL;
	}
	*bad = NULL;
	*slots = (unsigned)strtoul(option(opt, n, "slots", "64"), NULL, 10);
	*sync = strcmp(option(opt, n, "sync", "none"), "fdatasync") == 0;
	return 0;
}

static int queued_check(const struct latlab_option *opt, int n, const char **bad, char *why,
			size_t len)
{
	unsigned slots;
	int sync;

	return parse(opt, n, &slots, &sync, bad, why, len);
}

/* The writer: every filled slot to the file, in order, at normal priority. */
static void *writer_main(void *arg)
{
	struct queue *q = arg;
	uint64_t count;

	for (;;) {
		unsigned tail = atomic_load_explicit(&q->tail, memory_order_relaxed);

		if (tail == atomic_load_explicit(&q->head, memory_order_acquire)) {
			if (atomic_load(&q->stop))
				return NULL;
			if (read(q->wake, &count, sizeof(count)) < 0 && errno != EINTR)
				return NULL;
			continue;
		}
		const unsigned char *slot = q->buf + (size_t)(tail % q->slots) * q->block;

		if (q->offset + (long long)q->block > WRAP)
			q->offset = 0;
		if (pwrite(q->fd, slot, q->block, q->offset) != (ssize_t)q->block && !q->write_errno)
			q->write_errno = errno ? errno : EIO;
		if (q->sync && fdatasync(q->fd) != 0 && !q->write_errno)
			q->write_errno = errno;
		q->offset += (long long)q->block;
		atomic_store_explicit(&q->tail, tail + 1, memory_order_release);
	}
}

static int queued_setup(struct latlab_step *s, const struct latlab_option *opt, int n)
{
	const char *file = option(opt, n, "file", "/var/tmp/latlab-queued.dat"), *bad;
	struct queue *q = calloc(1, sizeof(*q));
	int rc;

	if (!q)
		return -ENOMEM;
	q->fd = q->wake = -1;
	if ((rc = parse(opt, n, &q->slots, &q->sync, &bad, s->why, sizeof(s->why))) != 0)
		goto fail;
	/* a file per thread: two threads' blocks do not interleave */
	char path[4096];

	snprintf(path, sizeof(path), s->thread ? "%s.%d" : "%s", file, s->thread);
	q->block = s->size > 0 ? (size_t)s->size : 4096;
	q->buf = calloc(q->slots, q->block);	/* touched now: no fault in the step */
	q->fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	q->wake = eventfd(0, EFD_CLOEXEC);
	if (!q->buf || q->fd < 0 || q->wake < 0) {
		rc = -errno;
		snprintf(s->why, sizeof(s->why), "%.100s: %s", q->fd < 0 ? path : "set-up", strerror(errno));
		goto fail;
	}
	memset(q->buf, 0, (size_t)q->slots * q->block);
	if ((rc = -pthread_create(&q->writer, NULL, writer_main, q)) != 0) {
		snprintf(s->why, sizeof(s->why), "the writer thread: %s", strerror(-rc));
		goto fail;
	}
	s->state = q;
	return 0;
fail:
	if (q->fd >= 0)
		close(q->fd);
	if (q->wake >= 0)
		close(q->wake);
	free(q->buf);
	free(q);
	return rc;
}

static long long queued_step(struct latlab_step *s)
{
	struct queue *q = s->state;
	unsigned head = atomic_load_explicit(&q->head, memory_order_relaxed);
	uint64_t one = 1;

	if (head - atomic_load_explicit(&q->tail, memory_order_acquire) == q->slots)
		return -ENOBUFS;	/* the writer fell behind: this block is lost */
	unsigned char *slot = q->buf + (size_t)(head % q->slots) * q->block;

	/* the block a logger would have sampled: a sequence number in every word */
	q->seq++;
	for (size_t i = 0; i + sizeof(q->seq) <= q->block; i += 64)
		memcpy(slot + i, &q->seq, sizeof(q->seq));
	atomic_store_explicit(&q->head, head + 1, memory_order_release);
	if (write(q->wake, &one, sizeof(one)) < 0)
		return -errno;
	return (long long)q->block;
}

static void queued_teardown(struct latlab_step *s)
{
	struct queue *q = s->state;
	uint64_t one = 1;

	atomic_store(&q->stop, 1);
	(void)!write(q->wake, &one, sizeof(one));
	pthread_join(q->writer, NULL);
	if (q->write_errno)
		fprintf(stderr, "queued-writer: a write failed: %s\n", strerror(q->write_errno));
	close(q->fd);
	close(q->wake);
	free(q->buf);
	free(q);
}

const struct latlab_plugin latlab_plugin = {
	.abi = LATLAB_PLUGIN_ABI,
	.name = "queued-writer",
	.check = queued_check,
	.setup = queued_setup,
	.step = queued_step,
	.teardown = queued_teardown,
};
