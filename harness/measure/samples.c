#include <byteswap.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
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
	struct samples_header h = {
		.magic = SAMPLES_MAGIC,
		.bom = SAMPLES_BOM,
		.header_size = sizeof(h),
		.record_size = sizeof(struct sample_rec),
		.threads = (uint32_t)nthreads,
		.interval_ns = interval_ns,
	};
	char path[PATH_MAX];
	int rc;

	memset(sw, 0, sizeof(*sw));
	sw->nthreads = nthreads;
	snprintf(path, sizeof(path), "%s/samples.bin", dir);
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

static void swap_rec(struct sample_rec *r)
{
	r->t_ns = (int64_t)bswap_64((uint64_t)r->t_ns);
	r->thread = (int32_t)bswap_32((uint32_t)r->thread);
	for (int m = 0; m < METRIC_CORE; m++)
		r->value_ns[m] = (int64_t)bswap_64((uint64_t)r->value_ns[m]);
}

int samples_read(const char *path,
		 int (*fn)(void *arg, const struct sample_rec *rec), void *arg,
		 uint64_t *records)
{
	struct stat st;
	struct samples_header h;
	struct sample_rec rec;
	char err[PATH_MAX + 128];
	/* a FIFO or a device in its place is refused, not read forever */
	int fd = file_open_regular(path, INT64_MAX, err, sizeof(err));
	FILE *fp = fd >= 0 ? fdopen(fd, "r") : NULL;
	int swap, rc = 0;

	if (fd < 0)
		return fd == -EISDIR || fd == -ENOENT ? fd : -EINVAL;
	if (!fp) {
		close(fd);
		return -ENOMEM;
	}
	if (fread(&h, sizeof(h), 1, fp) != 1 ||
	    memcmp(h.magic, SAMPLES_MAGIC, sizeof(h.magic)) != 0) {
		fclose(fp);
		return -EINVAL;
	}
	swap = h.bom != SAMPLES_BOM;
	if (swap && bswap_32(h.bom) != SAMPLES_BOM) {
		fclose(fp);
		return -EINVAL;
	}
	if ((swap ? bswap_32(h.record_size) : h.record_size) != sizeof(rec)) {
		fclose(fp);
		return -EINVAL;
	}
	/* whole records after the header, or the file was cut */
	if (fstat(fd, &st) != 0 || (st.st_size - (off_t)sizeof(h)) % (off_t)sizeof(rec)) {
		fclose(fp);
		return -EBADMSG;
	}
	if (records)
		*records = (uint64_t)(st.st_size - (off_t)sizeof(h)) / sizeof(rec);
	while (fn && rc == 0 && fread(&rec, sizeof(rec), 1, fp) == 1) {
		if (swap)
			swap_rec(&rec);
		rc = fn(arg, &rec);
	}
	if (rc == 0 && ferror(fp))
		rc = -EIO;
	fclose(fp);
	return rc;
}
