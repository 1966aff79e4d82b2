#include <string.h>

#include "chain.h"
#include "figures.h"
#include "files.h"
#include "netpeer.h"

int figures_in_ram(const char *fstype)
{
	return !strcmp(fstype, "rootfs") || !strcmp(fstype, "tmpfs") || !strcmp(fstype, "ramfs");
}

/* The kinds of device (WAIT_ bits) cell c's workload can wait for. */
static unsigned cell_devices(const struct config *cfg, const struct cell *c)
{
	const struct workload_def *wd = &cfg->workload[c->workload];
	const char *path = wd->ops->fs_path ? wd->ops->fs_path(wd->opts) : NULL;
	char src[256], type[64];
	struct net_peer np;
	unsigned devices = 0;

	/* RAM, or a modelled disk (null_blk): the kernel's own timer, no device */
	if (path && file_mount_of(path, src, sizeof(src), type, sizeof(type)) == 0 &&
	    !figures_in_ram(type) && !file_dev_modelled(src))
		devices |= WAIT_DISK;
	/* a card's, or a peer elsewhere: a real network's time */
	if (workload_sends_ip(wd->ops, wd->opts) &&
	    (workload_net_to(wd->ops, wd->opts) || (net_peer_get(&np) == 0 && np.device)))
		devices |= WAIT_NET;
	return devices;
}

unsigned cell_wait_metrics(const struct config *cfg, const struct cell *c)
{
	const struct workload_def *wd = &cfg->workload[c->workload];

	return workload_wait_metrics(wd->ops, wd->opts, cell_devices(cfg, c));
}

void cell_vouch_facts(const struct config *cfg, const struct cell *c,
		      const struct cell_result *res, int emulated, struct vouch_facts *f)
{
	const struct workload_def *wd = &cfg->workload[c->workload];
	double late = 0, periods = 0;

	memset(f, 0, sizeof(*f));
	f->status = res->status;
	f->emulated = emulated;
	f->waits = cell_wait_metrics(cfg, c);
	for (int i = 0; i < res->nthreads; i++) {
		const struct worker *w = &res->workers[i];

		if (missed_pct(w->cycles, w->overruns) > f->missed_pct)
			f->missed_pct = missed_pct(w->cycles, w->overruns);
		late += (double)hist_count_above(&w->hist[METRIC_WAKEUP], c->interval);
		periods += (double)(w->cycles + w->overruns);
	}
	f->wake_missed_pct = vouch_wake_missed_pct(late, periods);
	f->traced = (res->traced ? VT_SPIKES : 0) |
		    (strcmp(res->timerlat, "on") == 0 ? VT_TIMERLAT : 0);
	/* a watched program's own figures are the watch's: nothing beside them to perturb */
	if (strcmp(res->watch, "on") == 0 && !res->measured_by[0] &&
	    wd->ops->primary != METRIC_WATCH_TIMER)
		f->traced |= strcmp(res->watch_method, "bpf") == 0 ? VT_WATCH_BPF : VT_WATCH_HIST;
}
