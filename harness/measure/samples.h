/*
 * samples.bin: every measured cycle of a cell, when [campaign] samples =
 * on. The real-time threads never write files (seed 004): each pushes its
 * records into its own SPSC ring; one SCHED_OTHER writer thread drains
 * them into the file. Records are in native byte order; the header's
 * byte-order mark lets a reader on another machine convert. A full ring
 * drops records and counts them (cell.ini: samples_dropped).
 */
#ifndef LATLAB_SAMPLES_H
#define LATLAB_SAMPLES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "atomic.h"
#include "samplesfile.h"
#include "worker.h"

#define SAMPLES_SLOTS (1u << 16)	/* per thread: 2.6 MB, 13 s at 200 us */

struct samples_writer {
	struct afile file;
	int nthreads;
	struct ring *rings;	/* one per thread, owned */
	struct sample_rec *storage;
	pthread_t tid;
	_Atomic int done;	/* the workers have stopped: drain and end */
	int error;		/* first write errno, 0 if none */
	uint64_t written;
};

/*
 * Create DIR/samples.bin (under a temporary name) and start the writer
 * thread; give worker i `&sw->rings[i]`. 0 or -errno.
 */
int samples_start(struct samples_writer *sw, const char *dir, int nthreads,
		  int64_t interval_ns);

/*
 * After the workers were joined: drain the rest, stop the writer, and
 * commit the file (flush, fsync, rename). 0 or -errno (the file is then
 * removed). `dropped` receives the records lost to full rings.
 */
int samples_finish(struct samples_writer *sw, uint64_t *dropped);

#endif
