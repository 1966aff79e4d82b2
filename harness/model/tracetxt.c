#include <stdio.h>

#include "atomic.h"
#include "model.h"
#include "tracetxt.h"

static void fill(FILE *fp, void *arg)
{
	const struct tracetxt *t = arg;
	const char *text;
	int64_t ns;

	fprintf(fp, "# latlab capture %d: thread %d (tid %d) on CPU %d, wake-up latency %lld ns\n"
		"# intended wake %lld ns CLOCK_MONOTONIC (+0 below), woke +%lld ns; instance %s, trace_clock mono\n",
		t->capture, t->thread, t->tid, t->cpu, (long long)t->latency_ns,
		(long long)t->intended_ns, (long long)t->woke_ns, t->instance);
	if (!t->complete) {
		fprintf(fp, "# incomplete: %s\n", t->note);
	} else {
		fprintf(fp, "# %s; timer expiry +%lld ns, switch-in +%lld ns\n", t->note,
			(long long)t->expiry_ns, (long long)t->switch_in_ns);
		for (int i = 0; i < t->nparts; i++)
			fprintf(fp, "#   %-11s %10lld ns  %s%s\n", t->part[i].part,
				(long long)t->part[i].ns, t->part[i].name,
				t->part[i].culprit ? "   <- culprit" : "");
	}
	if (t->kernel)
		fprintf(fp, "# the kernel's account (osnoise events, timerlat running): %s\n", t->kernel);
	fprintf(fp, "#\n# %12s  %s\n", "us from wake", "event (CPU of the thread only)");
	while ((text = t->next(t->arg, &ns)))
		fprintf(fp, "%14.3f  %s\n", (double)ns / 1000.0, text);
}

int tracetxt_write(const char *dir, const struct tracetxt *t)
{
	char name[32];

	cell_trace_name(name, sizeof(name), t->capture, "txt");
	/* the cast: afile_write's fill takes void *; fill only reads */
	return afile_write(dir, name, fill, (void *)t);
}
