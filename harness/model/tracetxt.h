/*
 * trace-N.txt: one spike capture as text (docs/spikes.md). A header of
 * '#' lines (the wake-up, the instance, the parts of the latency and the
 * culprit, or why the capture is incomplete), then the thread CPU's
 * events, each in µs from the intended wake-up. trace/tracer.c fills it
 * from its events; this is the format's one writer.
 */
#ifndef LATLAB_TRACETXT_H
#define LATLAB_TRACETXT_H

#include <stdint.h>
#include <stdio.h>

struct tracetxt_part {
	const char *part;	/* attrib's part name: timer, irq, ... */
	int64_t ns;
	const char *name;	/* what it was: an IRQ, a task, ... */
	int culprit;
};

struct tracetxt {
	int capture, thread, tid, cpu;
	int64_t latency_ns, intended_ns, woke_ns;	/* woke: after intended */
	const char *instance;
	int complete;
	const char *note;			/* why incomplete, or what was inferred */
	int64_t expiry_ns, switch_in_ns;	/* after intended */
	const struct tracetxt_part *part;
	int nparts;
	const char *kernel;	/* the kernel's own account (osnoise), one line; NULL none */
	/* the next event in order, its time after intended in *ns; NULL: no more */
	const char *(*next)(void *arg, int64_t *ns);
	void *arg;
};

/* DIR/trace-N.txt (N: t->capture), atomically. 0 or -errno. */
int tracetxt_write(const char *dir, const struct tracetxt *t);

#endif
