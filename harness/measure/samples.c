#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "model.h"
#include "samples.h"

#define DRAIN_NS (20 * 1000 * 1000)

static void write_rec(struct samples_writer *sw, const struct sample_rec *r)
{
	if (sw->error)
		return;
	if (fwrite(r, sizeof(*r), 1, sw->file.fp) != 1)
		sw->error = errno ? errno : EIO;
	else
		sw->written++;
}

static int drain_all(struct samples_writer *sw)
{
	struct sample_rec rec;
	int n = 0;

	for (int i = 0; i < sw->nthreads; i++)
		while (ring_pop(&sw->rings[i], &rec)) {
			write_rec(sw, &rec);
			n++;
		}
	return n;
}

static void *writer_main(void *arg)
{
	struct samples_writer *sw = arg;
	struct timespec t = { 0, DRAIN_NS };

	while (!atomic_load_explicit(&sw->done, memory_order_acquire)) {
		if (drain_all(sw) == 0)
			nanosleep(&t, NULL);
	}
	drain_all(sw);	/* what came in before done was set */
	return NULL;
}

int samples_start(struct samples_writer *sw, const char *dir, int nthreads,
		  int64_t interval_ns)
{
	struct samples_header h = samples_header_of(nthreads, interval_ns);
	char path[PATH_MAX];
	int rc;

	memset(sw, 0, sizeof(*sw));
	sw->nthreads = nthreads;
	rc = cell_file_path(path, sizeof(path), dir, CELLF_SAMPLES);
	if (rc == 0)
		rc = mkdir_p(dir);
	if (rc == 0)
		rc = afile_open(&sw->file, path);
	if (rc)
		return rc;
	sw->rings = calloc((size_t)nthreads, sizeof(*sw->rings));
	sw->storage = calloc((size_t)nthreads * SAMPLES_SLOTS,
			     sizeof(*sw->storage));
	if (!sw->rings || !sw->storage) {
		rc = -ENOMEM;
		goto fail;
	}
	for (int i = 0; i < nthreads; i++)
		ring_init(&sw->rings[i], sw->storage + (size_t)i * SAMPLES_SLOTS,
			  SAMPLES_SLOTS, sizeof(struct sample_rec));
	/* a big stdio buffer: the file is written in large sequential chunks */
	setvbuf(sw->file.fp, NULL, _IOFBF, 1 << 20);
	if (fwrite(&h, sizeof(h), 1, sw->file.fp) != 1) {
		rc = -EIO;
		goto fail;
	}
	rc = -pthread_create(&sw->tid, NULL, writer_main, sw);
	if (rc == 0)
		return 0;
fail:
	afile_abort(&sw->file);
	free(sw->rings);
	free(sw->storage);
	sw->rings = NULL;
	sw->storage = NULL;
	return rc;
}

int samples_finish(struct samples_writer *sw, uint64_t *dropped)
{
	int rc;

	atomic_store_explicit(&sw->done, 1, memory_order_release);
	pthread_join(sw->tid, NULL);
	*dropped = 0;
	for (int i = 0; i < sw->nthreads; i++)
		*dropped += sw->rings[i].dropped;
	if (sw->error) {
		afile_abort(&sw->file);
		rc = -sw->error;
	} else {
		rc = afile_commit(&sw->file);
	}
	free(sw->rings);
	free(sw->storage);
	sw->rings = NULL;
	sw->storage = NULL;
	return rc;
}
