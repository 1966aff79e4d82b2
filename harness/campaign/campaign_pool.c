/*
 * Instruction-clock guests side by side. A guest on clock = icount
 * measures in instructions, which the host's load does not reach
 * (docs/campaigns.md: the same maxima with busy loops beside it), so up
 * to `jobs` of them run at once, each one variant's cells of the rounds
 * its boot holds (cp_boot_at), started in the campaign's order. A guest on the host's clock, or a
 * cell measured here, never runs beside them: the campaign waits for
 * the pool first (cp_pool_wait).
 *
 * Each job is a thread that boots its guests one after another
 * (cp_run_qemu); the ledger, the brief lines and what is said once are
 * the campaign's, under cp->lock, which also guards the queue here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign_run.h"
#include "exitcodes.h"
#include "log.h"
#include "where.h"

#define JOBS_MAX 64

/* a job's thread waits in qemu's pipe: this much stack is plenty */
#define JOB_STACK (1 << 20)

struct cp_task {
	int v;
	struct cp_rounds round;
};

struct cp_pool {
	struct cp_task *task;	/* queued, in the campaign's order */
	int ntasks, cap, next;	/* next: the first not yet taken */
	pthread_t *thread;	/* every job started since the last wait */
	int nthreads, running;
	int status;		/* the finished tasks' exit status, folded */
	int stop;		/* EXIT_INTERRUPTED or -errno: take no more */
	int said;		/* how many run side by side, said once */
};

int cp_pool_takes(const struct campaign *cp, int v)
{
	return cp->qemu.jobs > 1 && cp_icount_guest(&cp->cfg->kernel[v]);
}

/*
 * The memory this machine can give without swapping: /proc/meminfo's
 * MemAvailable (free memory and the cache it can drop), else the free
 * pages alone. Bytes, or 0 unknown.
 */
static int64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	long long kib = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	if (kib > 0)
		return (int64_t)kib * 1024;
	long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (int64_t)pages * size : 0;
}

/* Guests a machine holds: its available memory over the largest icount guest's. */
static int jobs_by_memory(const struct config *cfg)
{
	int64_t avail = mem_available(), guest = 0;

	for (int v = 0; v < cfg->nkernels; v++)
		if (cfg->kernel[v].clock == CLOCK_ICOUNT && cfg->kernel[v].memory > guest)
			guest = cfg->kernel[v].memory;
	if (avail <= 0 || guest <= 0)
		return JOBS_MAX;
	/* qemu's own share beside the guest's RAM: a quarter more */
	int64_t n = avail / (guest + guest / 4);

	return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (int)n;
}

int cp_pool_jobs(const struct config *cfg, int asked)
{
	if (asked > 0)
		return asked;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int mem = jobs_by_memory(cfg);
	int n = cpus < 1 ? 1 : cpus > JOBS_MAX ? JOBS_MAX : (int)cpus;

	return n < mem ? n : mem;
}

/*
 * A job: the next queued task until none is left or the pool stops. A
 * task's cp_run_qemu takes cp->lock itself.
 */
static void *job(void *arg)
{
	struct campaign *cp = arg;
	struct cp_pool *p = cp->qemu.pool;

	pthread_mutex_lock(&cp->lock);
	while (!p->stop && p->next < p->ntasks) {
		struct cp_task t = p->task[p->next++];

		pthread_mutex_unlock(&cp->lock);
		int rc = cp_run_qemu(cp, t.v, t.round);
		pthread_mutex_lock(&cp->lock);
		if (rc < 0 || rc == EXIT_INTERRUPTED) {
			/* the first reason to stop is the one said */
			if (!p->stop || (rc < 0 && p->stop == EXIT_INTERRUPTED))
				p->stop = rc;
		} else {
			cp_fold_exit(&p->status, rc);
		}
	}
	p->running--;
	pthread_mutex_unlock(&cp->lock);
	return NULL;
}

/*
 * One more job when fewer than jobs run and tasks wait. Under cp->lock;
 * 0, or -errno when no thread could be had.
 */
static int start_job(struct campaign *cp)
{
	struct cp_pool *p = cp->qemu.pool;
	pthread_attr_t attr;
	pthread_t *more;
	int rc;

	if (p->running >= cp->qemu.jobs || p->running >= p->ntasks - p->next)
		return 0;
	more = realloc(p->thread, (size_t)(p->nthreads + 1) * sizeof(*more));
	if (!more)
		return -ENOMEM;
	p->thread = more;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, JOB_STACK);
	rc = pthread_create(&p->thread[p->nthreads], &attr, job, cp);
	pthread_attr_destroy(&attr);
	if (rc)
		return -rc;
	p->nthreads++;
	p->running++;
	return 0;
}

int cp_pool_init(struct campaign *cp)
{
	const struct config *cfg = cp->cfg;
	struct cp_pool *p;
	int any = 0;

	for (int v = 0; v < cfg->nkernels; v++)
		any |= cp_pool_takes(cp, v);
	if (!any)
		return 0;
	/* at most a task per variant and round between two waits */
	p = calloc(1, sizeof(*p));
	if (p)
		p->cap = cfg->nkernels * (int)cfg->campaign.repeat + 1;
	if (p && !(p->task = calloc((size_t)p->cap, sizeof(*p->task)))) {
		free(p);
		p = NULL;
	}
	if (!p) {
		cp->qemu.jobs = 1;
		return -ENOMEM;
	}
	cp->qemu.pool = p;
	return 0;
}

void cp_pool_add(struct campaign *cp, int v, struct cp_rounds round)
{
	struct cp_pool *p = cp->qemu.pool;

	pthread_mutex_lock(&cp->lock);
	if (!p->said++)
		log_info("instruction-clock guests run side by side, up to %d at once (--jobs)",
			 cp->qemu.jobs);
	if (p->ntasks < p->cap)
		p->task[p->ntasks++] = (struct cp_task){ v, round };
	int rc = start_job(cp);
	if (rc && p->running == 0) {
		log_warn("no thread for a guest side by side (%s): one at a time", strerror(-rc));
		p->running++;
		pthread_mutex_unlock(&cp->lock);
		job(cp);	/* what is queued runs here, now */
		return;
	}
	pthread_mutex_unlock(&cp->lock);
}

int cp_pool_wait(struct campaign *cp)
{
	struct cp_pool *p = cp->qemu.pool;
	int rc;

	if (!p)
		return EXIT_PASS;
	/* only the campaign's own thread starts jobs or waits for them */
	for (int i = 0; i < p->nthreads; i++)
		pthread_join(p->thread[i], NULL);
	pthread_mutex_lock(&cp->lock);
	rc = p->stop ? p->stop : p->status;
	/* a task never taken after a stop: its cells stay pending */
	p->nthreads = p->ntasks = p->next = 0;
	p->status = EXIT_PASS;
	p->stop = 0;
	pthread_mutex_unlock(&cp->lock);
	return rc;
}

void cp_pool_free(struct campaign *cp)
{
	struct cp_pool *p = cp->qemu.pool;

	if (!p)
		return;
	cp_pool_wait(cp);
	free(p->task);
	free(p->thread);
	free(p);
	cp->qemu.pool = NULL;
}
