#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "atomic.h"
#include "axis_ops.h"
#include "cellfiles.h"
#include "chain.h"
#include "figures.h"
#include "files.h"
#include "csvfile.h"
#include "log.h"
#include "netpeer.h"
#include "units.h"
#include "vouch.h"

void cell_hist_summary(struct csvw *csv, const struct hist *h)
{
	static const double pct[] = { 50, 90, 99, 99.9, 99.99 };

	csvw_int(csv, (int64_t)h->count);
	csvw_int(csv, h->count ? h->min : 0);
	csvw_int(csv, (int64_t)(hist_mean(h) + 0.5));
	csvw_int(csv, (int64_t)(hist_stddev(h) + 0.5));
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		csvw_int(csv, hist_percentile(h, pct[i]));
	csvw_int(csv, h->count ? h->max : 0);
}

void cell_summary_fields(struct csvw *csv, const struct worker *w, int m)
{
	csvw_int(csv, w->thread);
	csvw_int(csv, w->cpu);
	csvw_str(csv, metric_name(m));
	cell_hist_summary(csv, &w->hist[m]);
	csvw_int(csv, (int64_t)w->overruns);
	csvw_int(csv, (int64_t)w->errors);
	csvw_int(csv, w->first_errno);
	csvw_int(csv, w->utime_ns);
	csvw_int(csv, w->stime_ns);
	/* the I/O's own bandwidth: bytes over the time spent in run() */
	const struct hist *io = &w->hist[METRIC_IO];
	csvw_int(csv, (int64_t)w->bytes);
	csvw_int(csv, io->sum ? (int64_t)((double)w->bytes * 1e9 / (double)io->sum) : 0);
}

static void write_summary(FILE *fp, const struct cell_result *res)
{
	struct csvw csv = { .fp = fp };

	csvw_header(&csv, SUMMARY_COLUMNS);
	for (int i = 0; i < res->nthreads; i++)
		for (int m = 0; m < METRIC_COUNT; m++) {
			if (!worker_has_metric(&res->workers[i], m))
				continue;
			cell_summary_fields(&csv, &res->workers[i], m);
			csvw_end(&csv);
		}
}

static void hist_row(struct csvw *csv, int64_t thread, int64_t cpu, const char *metric,
		     int64_t lo, int64_t hi, uint64_t count)
{
	csvw_int(csv, thread);
	csvw_int(csv, cpu);
	csvw_str(csv, metric);
	csvw_int(csv, lo);
	csvw_int(csv, hi);
	csvw_int(csv, (int64_t)count);
	csvw_end(csv);
}

void cell_hist_rows(struct csvw *csv, const struct hist *h, int64_t thread,
		    int64_t cpu, const char *metric)
{
	/* below zero: [min, 0); above range: [2^42, max+1) */
	if (h->underflow)
		hist_row(csv, thread, cpu, metric, h->min, 0, h->underflow);
	for (int b = 0; b < HIST_BUCKETS; b++) {
		int64_t lo, hi;

		if (!h->bucket[b])
			continue;
		hist_bucket_range(b, &lo, &hi);
		hist_row(csv, thread, cpu, metric, lo, hi, h->bucket[b]);
	}
	if (h->overflow)
		hist_row(csv, thread, cpu, metric, HIST_RANGE_NS, h->max + 1, h->overflow);
}

static void write_hist(FILE *fp, const struct cell_result *res)
{
	struct csvw csv = { .fp = fp };

	csvw_header(&csv, HIST_COLUMNS);
	for (int i = 0; i < res->nthreads; i++) {
		const struct worker *w = &res->workers[i];

		for (int m = 0; m < METRIC_COUNT; m++)
			if (worker_has_metric(w, m))
				cell_hist_rows(&csv, &w->hist[m], w->thread, w->cpu,
					       metric_name(m));
	}
}

static void write_series(FILE *fp, const struct cell_result *res)
{
	struct csvw csv = { .fp = fp };

	csvw_header(&csv, "t_s,thread,metric,max_ns,samples");
	for (int i = 0; i < res->nseries; i++) {
		const struct second_max *r = &res->series[i];

		for (int m = 0; m < METRIC_COUNT; m++) {
			if (!worker_has_metric(&res->workers[r->thread], m))
				continue;
			csvw_int(&csv, r->t_s);
			csvw_int(&csv, r->thread);
			csvw_str(&csv, metric_name(m));
			csvw_int(&csv, r->max_ns[m]);
			csvw_int(&csv, r->samples);
			csvw_end(&csv);
		}
	}
}

/* timeline.csv: per window and thread, each metric's non-empty bins. */
static void write_timeline(FILE *fp, const struct cell_result *res)
{
	struct csvw csv = { .fp = fp };

	csvw_header(&csv, TIMELINE_COLUMNS);
	for (int i = 0; i < res->ntimeline; i++) {
		const struct tl_window *w = &res->timeline[i];

		for (int m = 0; m < METRIC_COUNT; m++) {
			if (w->thread < 0 || w->thread >= res->nthreads ||
			    !worker_has_metric(&res->workers[w->thread], m))
				continue;
			for (int b = 0; b < TL_BINS; b++) {
				if (!w->bins[m][b])
					continue;
				csvw_int(&csv, w->t_s);
				csvw_int(&csv, w->thread);
				csvw_str(&csv, metric_name(m));
				csvw_int(&csv, b);
				csvw_int(&csv, b ? timeline_lo(b) : 0);
				csvw_int(&csv, b < TL_BINS - 1 ? timeline_lo(b + 1) : 0);
				csvw_int(&csv, (int64_t)w->bins[m][b]);
				csvw_end(&csv);
			}
		}
	}
}

/*
 * [matrix] numa: the placement asked, and per thread what it bound to and
 * where its stack's and its workload buffer's pages are (node:pages):
 * numa_ok = no where a bound thread's pages lie elsewhere.
 */
static void write_numa(FILE *fp, const struct config *cfg, const struct cell *c,
		       const struct cell_result *res)
{
	const struct axis *numa = &cfg->matrix.numa;
	int ok = 1, checked = 0;

	if (cell_axis_value(cfg, c, TAXIS_NUMA) == NUMA_NONE)
		return;
	fprintf(fp, "numa = %s\n", numa->s[c->numa]);
	for (int i = 0; i < res->nthreads; i++) {
		const struct worker *w = &res->workers[i];
		int s, b;

		if (!w->numa)
			continue;
		fprintf(fp, "numa_nodes.%d = %s\nstack_nodes.%d = %s\nbuffer_nodes.%d = %s\n", i,
			w->numa_place.nodes, i, w->stack_nodes[0] ? w->stack_nodes : "unknown",
			i, w->buf_nodes[0] ? w->buf_nodes : "none");
		s = numa_where_ok(w->numa, w->stack_nodes);
		b = numa_where_ok(w->numa, w->buf_nodes);
		checked |= s >= 0 || b >= 0;
		ok &= s != 0 && b != 0;
	}
	if (checked)
		fprintf(fp, "numa_ok = %s\n", ok ? "yes" : "no");
}

/* Where a measured thread and the load share a node (a machine of nodes). */
static void write_shared(FILE *fp, const struct cell_result *res)
{
	if (res->numa_shared[0])
		fprintf(fp, "numa_shared = %s\n", res->numa_shared);
}

/*
 * A modelled disk's note: its service time and how a request completes,
 * as the kernel has its null_blk's parameters.
 */
static void write_modelled(FILE *fp)
{
	static const char *const modes[] = { "at once, in the submitter's context",
					     "at once, in the block softirq",
					     "by an hrtimer (a hard interrupt; on PREEMPT_RT, the timer softirq's thread)" };
	char nsec[32] = "", mode[8] = "";
	int m;

	file_first_line("/sys/module/null_blk/parameters/completion_nsec", nsec, sizeof(nsec));
	file_first_line("/sys/module/null_blk/parameters/irqmode", mode, sizeof(mode));
	m = mode[0] >= '0' && mode[0] <= '2' && !mode[1] ? mode[0] - '0' : -1;
	fprintf(fp, "files_model = null_blk, completion_nsec %s, irqmode %s\n", nsec[0] ? nsec : "unknown",
		mode[0] ? mode : "unknown");
	fprintf(fp, "files_note = a modelled disk (the kernel's null_blk, in memory): each request completed %s%s%s: a wait is the model's time and the kernel's own path, on any clock\n",
		m >= 0 ? modes[m] : "as its irqmode says", m == 2 ? " after completion_nsec " : "",
		m == 2 ? nsec : "");
}

/*
 * Where the cell's files went (a workload's path, a disk load's dir): the
 * filesystem and its device, and a note where that is RAM (a qemu guest
 * with disk = ram, a tmpfs) or where the clock cannot time a device.
 */
static void write_files_on(FILE *fp, const struct config *cfg, const struct cell *c)
{
	const char *path = config_cell_files(&cfg->workload[c->workload], &cfg->load[c->load], NULL);
	char src[256], type[64];

	if (!path)
		return;
	fprintf(fp, "files = %s\n", path);
	if (file_mount_of(path, src, sizeof(src), type, sizeof(type)) != 0)
		return;
	fprintf(fp, "files_on = %s (%s)\n", src, type);
	if (figures_in_ram(type))
		fprintf(fp, "files_note = in RAM: no block device, its interrupt or its completion in this cell's I/O\n");
	else if (file_dev_modelled(src))
		write_modelled(fp);
	else if (cfg->kernel[c->kernel].clock == CLOCK_ICOUNT)
		fprintf(fp, "files_note = the device is emulated and the clock counts instructions: while the guest waits for it, the clock jumps to its next timer, so a wait's length is not a device's\n");
}

/* waits_device: the metrics whose figures hold a wait for a device (vouch.h's fact). */
static void write_waits(FILE *fp, const struct config *cfg, const struct cell *c)
{
	unsigned waits = cell_wait_metrics(cfg, c);
	char names[256];

	vouch_metrics_text(waits, names, sizeof(names));
	if (waits)
		fprintf(fp, "waits_device = %s\n", names);
}

/*
 * [figures]: per metric the cell recorded, whether its figure can be
 * judged (vouch.h) and if not, why: "no (device-wait): on the
 * instruction clock ...". The readers decide again from the same facts
 * (a tree's cells.csv has the last word on the status).
 */
static void write_figures(FILE *fp, const struct config *cfg, const struct cell *c,
			  const struct sysinfo *si, const struct cell_result *res)
{
	const char *accel = si ? sysinfo_get(si, "vm", "accel") : NULL;
	const char *clock = si ? sysinfo_get(si, "vm", "clock") : NULL;
	struct vouch_facts f;
	unsigned recorded = 0;
	int emulated = 0;

	if (accel && accel[0] && strncmp(accel, "kvm", 3) != 0)
		emulated = clock && strcmp(clock, "icount") == 0 ? EMU_ICOUNT : EMU_TCG;
	cell_vouch_facts(cfg, c, res, emulated, &f);
	for (int i = 0; i < res->nthreads; i++)
		recorded |= res->workers[i].metrics;
	fprintf(fp, "\n[figures]\n");
	if (f.traced) {
		char words[128];

		vouch_trace_words(f.traced, words, sizeof(words));
		fprintf(fp, "perturbed_by = %s\n", words);
	}
	for (int m = 0; m < METRIC_COUNT; m++) {
		unsigned why = vouch_metric(&f, m);
		char keys[64], words[512];

		if (!(recorded & METRIC_BIT(m)))
			continue;
		if (!why) {
			fprintf(fp, "%s = yes\n", metric_name(m));
			continue;
		}
		vouch_keywords(why, keys, sizeof(keys));
		vouch_words(why, &f, m, words, sizeof(words));
		fprintf(fp, "%s = no (%s): %s\n", metric_name(m), keys, words);
	}
}

/*
 * Where the cell's IP traffic went (udp-rtt, a chain's udp-rtt step, the
 * net load): a qemu guest's two cards, or 127.0.0.1 with what that lacks.
 */
static void write_net(FILE *fp, const struct config *cfg, const struct cell *c)
{
	struct net_peer np;
	char name[64];

	const struct workload_def *wd = &cfg->workload[c->workload];
	const char *to = workload_net_to(wd->ops, wd->opts);

	if (!config_cell_sends_ip(wd, &cfg->load[c->load]))
		return;
	if (to) {	/* the round trip's peer is on another machine */
		fprintf(fp, "net = to %s\n", to);
		fprintf(fp, "net_note = to a peer on another machine (latload echo there): the round trip crosses this machine's network stack and device, the wire and the peer's\n");
		return;
	}
	if (net_peer_get(&np) != 0)
		return;
	fprintf(fp, "net = %s\n", net_peer_name(&np, name, sizeof(name)));
	if (np.veth)
		fprintf(fp, "net_note = from lv0 to the peer behind its veth twin, in a network namespace of its own: softirqs (NET_RX), no device or its interrupt; a round trip is the kernel's own path, on any clock\n");
	else if (np.device)
		fprintf(fp, "net_note = from eth0 to the peer behind eth1 (virtio-net, a hub inside qemu): each packet a card's interrupt%s\n",
			cfg->kernel[c->kernel].clock == CLOCK_ICOUNT ?
			"; the clock counts instructions, and jumps to its next timer while the guest waits for the card, so a round trip's length is not a network's" : "");
	else
		fprintf(fp, "net_note = 127.0.0.1: softirqs, no network device or its interrupt\n");
}

static void write_cell_ini(FILE *fp, const struct config *cfg,
			   const struct cell *c, const struct run_env *env,
			   const struct sysinfo *si, const struct cell_result *res)
{
	const struct workload_def *wd = &cfg->workload[c->workload];
	char buf[64];
	time_t t = (time_t)(res->started_real / NS_PER_S);
	struct tm tm;

	fprintf(fp, "[cell]\nid = %s\nindex = %d\n", c->id, c->index);
	fprintf(fp, "kernel = %s\nload = %s\nworkload = %s\nmetric = %s\n",
		cfg->kernel[c->kernel].name, cfg->load[c->load].name, wd->name,
		metric_name(wd->ops->primary));
	if (config_load_outside(&cfg->kernel[c->kernel], &cfg->load[c->load]))
		fprintf(fp, "load_in = host (outside the container: the host's latlab ran the load and judged it)\n");
	fprintf(fp, "threads = %d\naffinity = %s\ncpus = ", res->nthreads,
		cfg->matrix.affinity.s[c->affinity]);
	for (int i = 0; i < res->nthreads; i++)
		fprintf(fp, "%s%d", i ? "," : "", res->workers[i].cpu);
	units_format_duration(c->interval, buf, sizeof(buf));
	fprintf(fp, "\ninterval = %s\npriority = %lld\nsize = %lld\nrepeat = %d\n",
		buf, (long long)c->priority, (long long)c->size, c->repeat);
	/* when it ran, among the others: its round is its repeat */
	fprintf(fp, "order = %s\n", cfg->campaign.order == ORDER_SHUFFLED ? "shuffled" :
		cfg->campaign.order == ORDER_BLOCKED ? "blocked" : "interleaved");
	if (cfg->campaign.order == ORDER_SHUFFLED)
		fprintf(fp, "seed = %llu\n", (unsigned long long)matrix_order_seed(cfg));
	units_format_duration(cfg->campaign.duration, buf, sizeof(buf));
	fprintf(fp, "duration = %s\n", buf);
	if (cfg->kernel[c->kernel].clock == CLOCK_ICOUNT)
		fprintf(fp, "clock = icount\nclock_note = latencies are in instruction time: 1 instruction = %lld ns (qemu -icount shift=%lld), idle time skipped\n",
			1LL << cfg->kernel[c->kernel].icount_shift,
			(long long)cfg->kernel[c->kernel].icount_shift);
	write_files_on(fp, cfg, c);
	write_net(fp, cfg, c);
	write_waits(fp, cfg, c);
	fprintf(fp, "policy = %s\n", env->policy == SCHED_OTHER ? "other" : policy_name(c->policy));
	if (env->policy != SCHED_OTHER && (c->policy == POL_DEADLINE || c->policy == POL_OTHER))
		fprintf(fp, "priority_applies = no\n");	/* the axis value is not used */
	if (env->policy != SCHED_OTHER && c->policy == POL_DEADLINE && res->nthreads > 0)
		fprintf(fp, "dl_runtime_ns = %lld\ndl_deadline_ns = %lld\ndl_period_ns = %lld\ndl_wait = %s\n",
			(long long)res->workers[0].dl_runtime,
			(long long)res->workers[0].dl_deadline,
			(long long)res->workers[0].dl_period,
			res->workers[0].dl_yield ? "yield" : "sleep");
	fprintf(fp, "mlock = %s\n", env->mlocked ? "yes" : "no");
	if (res->dma_latency_us < 0)
		fprintf(fp, "dma_latency = none\n");
	else if (res->dma_latency)
		fprintf(fp, "dma_latency = %lld\n", (long long)res->dma_latency_us);
	else
		fprintf(fp, "dma_latency = not held\n");
	write_numa(fp, cfg, c, res);
	write_shared(fp, res);
	if (res->isolation[0])
		fprintf(fp, "isolation_done = %s\n", res->isolation);
	if (res->housekeeping[0])
		fprintf(fp, "housekeeping = %s\n", res->housekeeping);
	for (int a = 0; a < TAXIS_COUNT; a++)
		if (axis_hooks[a] && res->axis_done[a][0])
			fprintf(fp, "%s = %s\n", axis_hooks[a]->done_key, res->axis_done[a]);
	if (res->not_undone[0])
		fprintf(fp, "not_undone = %s\n", res->not_undone);
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(fp, "started = %s\nstarted_ns = %lld\nelapsed_ns = %lld\n", buf,
		(long long)res->started_real, (long long)res->elapsed_ns);
	fprintf(fp, "status = %s\nreason = %s\n", cell_status_name(res->status),
		res->reason);
	if (res->unjudged[0])	/* thresholds on a figure the run cannot vouch for */
		fprintf(fp, "thresholds_not_judged = %s\n", res->unjudged);
	if (res->traced) {
		char why[160];

		fprintf(fp, "trace = spikes\ntrace_method = %s\ncaptures = %d\nwhy = %s\n",
			res->trace_method, res->ncaptures, cell_why(res, why, sizeof(why)));
		if (res->trace_missing[0])
			fprintf(fp, "trace_missing = %s\n", res->trace_missing);
	}
	if (res->measured_by[0])
		fprintf(fp, "measured_by = %s\n", res->measured_by);
	if (res->watch[0]) {
		fprintf(fp, "watch = %s\n", res->watch);
		if (strcmp(res->watch, "on") == 0)
			fprintf(fp, "watch_method = %s\nwatch_dropped = %llu\n", res->watch_method,
				(unsigned long long)res->watch_dropped);
		if (res->watch_threads[0])
			fprintf(fp, "watch_threads = %s\n", res->watch_threads);
		if (res->watch_unwatched)
			fprintf(fp, "watch_unwatched = %d\n", res->watch_unwatched);
	}
	if (res->timerlat[0]) {
		fprintf(fp, "timerlat = %s\n", res->timerlat);
		if (res->timerlat_sched[0])
			fprintf(fp, "timerlat_sched = %s\n", res->timerlat_sched);
		if (strcmp(res->timerlat, "on") == 0)
			fprintf(fp, "timerlat_lost = %llu\n", (unsigned long long)res->timerlat_lost);
	}
	fprintf(fp, "series_dropped = %llu\n",
		(unsigned long long)res->series_dropped);
	if (cfg->campaign.samples)
		fprintf(fp, "samples = %s\nsamples_written = %llu\nsamples_dropped = %llu\n",
			res->samples_error[0] ? res->samples_error : "samples.bin",
			(unsigned long long)res->samples_written,
			(unsigned long long)res->samples_dropped);
	write_figures(fp, cfg, c, si, res);
	config_write_workload(fp, wd);
	config_write_load(fp, &cfg->load[c->load]);
}

static void write_spikes(FILE *fp, const struct cell_result *res)
{
	struct csvw csv = { .fp = fp };

	csvw_header(&csv, SPIKES_COLUMNS_WRITTEN);
	for (int i = 0; i < res->ncaptures; i++) {
		const struct capture *c = &res->captures[i];
		const struct attribution *a = &c->a;
		const struct attr_item *culprit = a->culprit >= 0 ? &a->item[a->culprit] : NULL;

		csvw_int(&csv, c->n);
		csvw_int(&csv, c->thread);
		csvw_int(&csv, c->cpu);
		csvw_int(&csv, c->t_ns);
		csvw_int(&csv, c->latency_ns);
		for (int p = 0; p < PART_COUNT; p++) {
			if (a->complete)
				csvw_int(&csv, a->part_ns[p]);
			else
				csvw_str(&csv, "");	/* not guessed */
		}
		csvw_str(&csv, culprit ? culprit->name : "");
		csvw_str(&csv, culprit ? part_name(culprit->part) : "incomplete");
		if (culprit)
			csvw_int(&csv, culprit->ns);
		else
			csvw_str(&csv, "");
		csvw_int(&csv, a->complete);
		csvw_str(&csv, a->note);
		if (c->steal_ns >= 0)
			csvw_int(&csv, c->steal_ns);
		else
			csvw_str(&csv, "");
		for (int k = 0; k < OS_KINDS; k++) {
			if (a->os_seen)
				csvw_int(&csv, a->os_ns[k]);
			else
				csvw_str(&csv, "");	/* no timerlat: the kernel said nothing */
		}
		csvw_str(&csv, a->os_seen ? a->os_top : "");
		csvw_end(&csv);
	}
}

static void write_interference(FILE *fp, const struct cell_result *res)
{
	struct csvw csv = { .fp = fp };

	csvw_header(&csv, INTERFERENCE_COLUMNS);
	for (int i = 0; i < res->nintf; i++) {
		const struct intf_row *r = &res->intf[i];

		csvw_int(&csv, r->cpu);
		csvw_str(&csv, r->kind);
		csvw_str(&csv, r->source);
		if (r->count >= 0)
			csvw_int(&csv, r->count);
		else
			csvw_str(&csv, "");	/* unavailable: never a fake 0 */
		csvw_str(&csv, r->note);
		csvw_end(&csv);
	}
}

struct cell_out {
	const struct config *cfg;
	const struct cell *c;
	const struct run_env *env;
	const struct sysinfo *si;
	struct cell_result *res;
};

static void fill_cell_ini(FILE *fp, void *a)
{
	struct cell_out *f = a;

	write_cell_ini(fp, f->cfg, f->c, f->env, f->si, f->res);
}

void cell_sysinfo_write(const struct sysinfo *si, FILE *fp)
{
	const char *section = NULL;

	for (int i = 0; i < si->n; i++) {
		if (!section || strcmp(section, si->kv[i].section) != 0) {
			section = si->kv[i].section;
			fprintf(fp, "%s[%s]\n", i ? "\n" : "", section);
		}
		fprintf(fp, "%s = %s\n", si->kv[i].key, si->kv[i].value);
	}
	fprintf(fp, "\n[warnings]\n");
	for (int i = 0; i < si->nwarn; i++)
		fprintf(fp, "w%d = %s\n", i + 1, si->warn[i]);
}

static void fill_sysinfo(FILE *fp, void *a)
{
	cell_sysinfo_write(((struct cell_out *)a)->si, fp);
}

static void fill_hist(FILE *fp, void *a)
{
	write_hist(fp, ((struct cell_out *)a)->res);
}

static void fill_summary(FILE *fp, void *a)
{
	write_summary(fp, ((struct cell_out *)a)->res);
}

/* load.csv: a row per load instance, what it did. */
static void write_load(FILE *fp, const struct loadset *ls)
{
	struct csvw w = { .fp = fp };

	csvw_header(&w, LOAD_COLUMNS);
	for (int i = 0; i < ls->n; i++) {
		const struct load_proc *p = &ls->proc[i];

		csvw_str(&w, ls->def->name);
		csvw_str(&w, ls->def->type);
		csvw_int(&w, i);
		csvw_str(&w, p->cpus);
		csvw_int(&w, (int64_t)p->ops);
		csvw_num(&w, p->seconds > 0 ? (double)p->ops / p->seconds : 0, 1);
		csvw_int(&w, p->restarts);
		csvw_end(&w);
	}
}

static void fill_series(FILE *fp, void *a)
{
	write_series(fp, ((struct cell_out *)a)->res);
}

static void fill_load(FILE *fp, void *a)
{
	write_load(fp, &((struct cell_out *)a)->res->loads);
}

static void fill_spikes(FILE *fp, void *a)
{
	write_spikes(fp, ((struct cell_out *)a)->res);
}

static void fill_interference(FILE *fp, void *a)
{
	write_interference(fp, ((struct cell_out *)a)->res);
}

static void fill_timeline(FILE *fp, void *a)
{
	write_timeline(fp, ((struct cell_out *)a)->res);
}

static void fill_log(FILE *fp, void *a)
{
	struct cell_result *res = ((struct cell_out *)a)->res;

	if (!res->log)
		return;		/* open_memstream failed: an empty log */
	fflush(res->log);
	if (res->logbuf && res->loglen)
		fwrite(res->logbuf, 1, res->loglen, fp);
}

int cell_write(const struct config *cfg, const struct cell *c,
	       const struct run_env *env, const struct sysinfo *si,
	       struct cell_result *res, const char *dir)
{
	struct cell_out f = { cfg, c, env, si, res };
	static const struct {
		enum cell_file file;
		void (*fill)(FILE *, void *);
	} files[] = {
		{ CELLF_SYSINFO, fill_sysinfo }, { CELLF_HIST, fill_hist },
		{ CELLF_SUMMARY, fill_summary }, { CELLF_SERIES, fill_series },
		{ CELLF_TIMELINE, fill_timeline },
		{ CELLF_LOAD, fill_load }, { CELLF_SPIKES, fill_spikes },
		{ CELLF_INTERFERENCE, fill_interference },
		{ CELLF_LOG, fill_log },
		/* last: a cell.ini with a status means the rest is there */
		{ CELLF_INI, fill_cell_ini },
	};
	int rc = mkdir_p(dir);

	if (rc)
		log_error("%s: %s", dir, strerror(-rc));
	for (size_t i = 0; rc == 0 && i < sizeof(files) / sizeof(files[0]); i++) {
		if ((!si && files[i].fill == fill_sysinfo) ||
		    (!res->traced && files[i].fill == fill_spikes) ||
		    (!res->nintf && files[i].fill == fill_interference) ||
		    (!res->timeline_ns && files[i].fill == fill_timeline))
			continue;
		const char *name = cell_file_name(files[i].file);

		rc = afile_write(dir, name, files[i].fill, &f);
		if (rc)		/* the file that failed, by name (ENOSPC) */
			log_error("writing %s/%s: %s", dir, name, strerror(-rc));
	}
	return rc;
}

static void fill_text(FILE *fp, void *arg)
{
	fputs(arg, fp);
}

int cell_write_sysinfo_text(const char *dir, const char *text)
{
	/* the cast: afile_write's fill takes void *; fill_text only reads */
	return afile_write(dir, cell_file_name(CELLF_SYSINFO), fill_text, (void *)text);
}
