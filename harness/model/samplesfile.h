/*
 * samples.bin's format: a header, then one record per measured cycle in
 * the writer's byte order (the header's byte-order mark lets a reader on
 * another machine convert). measure/samples.c writes it from the rings;
 * export reads it through samples_read.
 */
#ifndef LATLAB_SAMPLESFILE_H
#define LATLAB_SAMPLESFILE_H

#include <stdint.h>

#include "metric.h"

#define SAMPLES_MAGIC "LATLABS1"
#define SAMPLES_BOM 0x01020304u

struct samples_header {
	char magic[8];		/* "LATLABS1" */
	uint32_t bom;		/* 0x01020304 as written */
	uint32_t header_size;	/* sizeof this struct */
	uint32_t record_size;	/* sizeof(struct sample_rec) */
	uint32_t threads;
	int64_t interval_ns;
};

/* One measured cycle, as samples.bin stores it (native byte order). */
struct sample_rec {
	int64_t t_ns;		/* intended wake time, since the shared start */
	int32_t thread;
	int32_t reserved;
	int64_t value_ns[METRIC_CORE];	/* wakeup, io, response */
};

/* The header of a file of nthreads' records at interval_ns. */
struct samples_header samples_header_of(int nthreads, int64_t interval_ns);

/*
 * Read a samples.bin (any byte order) and call fn for every record (fn
 * NULL: check the header and the size only). *records (when not NULL):
 * how many it holds. 0, or -errno / -EINVAL (not a samples file, a
 * truncated header) / -EBADMSG (cut inside a record: the file is not
 * whole).
 */
int samples_read(const char *path,
		 int (*fn)(void *arg, const struct sample_rec *rec), void *arg,
		 uint64_t *records);

#endif
