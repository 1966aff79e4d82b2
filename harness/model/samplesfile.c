#include <byteswap.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "samplesfile.h"

struct samples_header samples_header_of(int nthreads, int64_t interval_ns)
{
	return (struct samples_header){
		.magic = SAMPLES_MAGIC,
		.bom = SAMPLES_BOM,
		.header_size = sizeof(struct samples_header),
		.record_size = sizeof(struct sample_rec),
		.threads = (uint32_t)nthreads,
		.interval_ns = interval_ns,
	};
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
