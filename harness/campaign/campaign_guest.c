#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign_run.h"
#include "cellfiles.h"
#include "exitcodes.h"
#include "guest.h"
#include "log.h"
#include "units.h"
#include "where.h"

/* In a guest: a finished cell's files and status, to the host (which
 * builds its cells.csv rows from the files). */
void cp_guest_report(const struct campaign *cp, int i, const char *dir)
{
	const struct chan_brief *b = &cp->brief[i];

	if (dir && guest_send_dir(dir) != 0 && cp_done(cp->lg.status[i]) &&
	    cp->lg.status[i] != CELL_SKIPPED)
		log_warn("%s: cannot send all of it to the host", dir);
	if (b->measured) {
		char args[256];

		chan_brief_format(b, args, sizeof(args));
		guest_say(CHAN_BRIEF, "%s", args);
	}
	guest_say(CHAN_CELL, "%s %s %s", cp->cells[i].id,
		   cell_status_name(cp->lg.status[i]),
		   cp->lg.reason[i] ? cp->lg.reason[i] : "");
}

/* The boot's own work done before any cell is measured (settle.h), and said. */
static void wait_for_boot(struct campaign *cp)
{
	struct settle *st = &cp->guest.settle;

	log_info("waiting for the boot to settle: the CPUs idle (busy at most %.0f %% of every %lld ms) for %.1f s",
		 SETTLE_BUSY_PCT, SETTLE_WINDOW_NS / NS_PER_MS, (double)SETTLE_QUIET_NS / NS_PER_S);
	cp->guest.settle_rc = settle_wait(SETTLE_WINDOW_NS, SETTLE_QUIET_NS, SETTLE_LIMIT_NS, st);
	if (cp->guest.settle_rc)
		log_warn("the boot's settling not watched (/proc/stat: %s): the first cell may hold the boot's own work",
			 strerror(-cp->guest.settle_rc));
	else if (st->settled)
		log_info("the boot settled: measuring %.2f s after latlab started (the CPUs %.1f %% busy before the quiet)",
			 st->waited_s, st->busy_pct);
	else
		log_warn("the boot did not settle in %.0f s (the CPUs %.1f %% busy): measuring anyway; the first cells hold the boot's own work",
			 st->waited_s, st->busy_pct);
}

/*
 * The channel to the host, the variant this guest is and the cells the
 * host gave it. Says hello first: from then on the host knows latlab runs.
 */
int cp_guest_setup(struct campaign *cp)
{
	const struct run_opts *ro = cp->ro;
	char line[CELL_ID_MAX + 2];
	int rc;
	FILE *fp;

	if (ro->guest_channel) {
		/* a container's: the pipe its engine handed in */
		char *end;
		long fd = strtol(ro->guest_channel, &end, 10);

		rc = *end || end == ro->guest_channel || fd < 0 || fd > 1024 ? -EBADF : guest_open_fd((int)fd);
		if (rc) {
			log_error("--guest-channel %s: not an open descriptor: --guest-channel is for the latlab that runs in a container latlab starts",
				  ro->guest_channel);
			return EXIT_USAGE;
		}
	} else if (getppid() != 1) {
		/* the init latlab writes starts it; port writes elsewhere go who knows where */
		log_error("--guest is for the latlab that the init of a latlab virtual machine starts, not for a shell");
		return EXIT_USAGE;
	} else if ((rc = guest_open()) != 0) {
		log_error("--guest: no channel to a host (I/O port 0x%x: %s): --guest is for the latlab that runs inside a latlab virtual machine",
			  GUEST_PORT, strerror(-rc));
		return EXIT_RUNTIME;
	}
	log_set_sink(guest_log);
	guest_say(CHAN_HELLO, "%s %s", cp->host, cp->kernel.release);
	cp->guest.v = config_kernel_index(cp->cfg, ro->guest);
	if (cp->guest.v < 0) {
		log_error("--guest %s: no such kernel variant in %s", ro->guest,
			  cp->cfg->path);
		return EXIT_USAGE;
	}
	cp->guest.want = calloc((size_t)cp->ncells, 1);
	fp = ro->guest_cells ? fopen(ro->guest_cells, "re") : NULL;
	if (!cp->guest.want || !fp) {
		log_error("--guest-cells %s: %s", ro->guest_cells ? ro->guest_cells : "(none)",
			  strerror(errno));
		if (fp)
			fclose(fp);
		return EXIT_USAGE;
	}
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		int i = cp_cell_index(cp, line);

		if (i >= 0)
			cp->guest.want[i] = 1;
	}
	fclose(fp);
	/* a container has no boot of its own to wait for */
	if (cp->cfg->kernel[cp->guest.v].runner == RUNNER_QEMU &&
	    cp->cfg->kernel[cp->guest.v].settle == 0)
		wait_for_boot(cp);
	return EXIT_PASS;
}

/* What kind of virtual machine this is, in every cell's sysinfo.ini. */
void cp_guest_sysinfo(struct campaign *cp)
{
	const char *accel = cp->ro->guest_accel ? cp->ro->guest_accel : "unknown";
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	if (cp->cfg->kernel[cp->guest.v].runner == RUNNER_CONTAINER) {
		sysinfo_add(&cp->si, "vm", "runner", "container");
		sysinfo_add(&cp->si, "vm", "variant", "%s", cp->ro->guest);
		sysinfo_add(&cp->si, "vm", "engine", "podman");
		sysinfo_add(&cp->si, "vm", "image", "%s", cp->cfg->kernel[cp->guest.v].image);
		goto send;
	}
	sysinfo_add(&cp->si, "vm", "runner", "qemu");
	sysinfo_add(&cp->si, "vm", "variant", "%s", cp->ro->guest);
	sysinfo_add(&cp->si, "vm", "accel", "%s", accel);
	if (cp->cfg->kernel[cp->guest.v].settle)
		sysinfo_add(&cp->si, "vm", "boot_settled", "off");
	else if (cp->guest.settle_rc == 0) {
		sysinfo_add(&cp->si, "vm", "boot_settled", "%s", cp->guest.settle.settled ? "yes" : "no");
		sysinfo_add(&cp->si, "vm", "boot_settle_s", "%.3f", cp->guest.settle.waited_s);
		sysinfo_add(&cp->si, "vm", "boot_busy_pct", "%.1f", cp->guest.settle.busy_pct);
	}
	int v = config_kernel_index(cp->cfg, cp->ro->guest);

	if (v >= 0 && cp->cfg->kernel[v].clock == CLOCK_ICOUNT) {
		const struct kernel_def *k = &cp->cfg->kernel[v];

		sysinfo_add(&cp->si, "vm", "clock", "icount");
		sysinfo_add(&cp->si, "vm", "icount_shift", "%lld", (long long)k->icount_shift);
		sysinfo_warn(&cp->si, "instruction-counted clock (qemu -icount shift=%lld): latencies are in instruction time, 1 instruction = %lld ns; they compare kernels' code paths, not hardware (no caches, memory stalls, SMIs or real interrupt controllers in them)",
			     (long long)k->icount_shift, 1LL << k->icount_shift);
	} else if (strcmp(accel, "kvm") != 0)
		sysinfo_warn(&cp->si, "qemu without KVM (accel = %s): the CPU is emulated, so absolute latencies are emulation-bound; only the comparison between kernel variants measured the same way means anything",
			     accel);
send:
	fp = open_memstream(&text, &len);
	if (!fp)
		return;
	cell_sysinfo_write(&cp->si, fp);
	fclose(fp);
	guest_blob(CHAN_SYSINFO, text, len);
	free(text);
}

/*
 * The host checked the cells against the guest's cpus = CPUs; the guest
 * checks them against what it has (isolated CPUs too). A cell that does
 * not fit is skipped with why, not measured on the wrong CPUs.
 */
static void guest_check_fits(struct campaign *cp)
{
	char why[PATH_MAX + 512];

	for (int i = 0; i < cp->ncells; i++) {
		if (!cp->guest.want[i] ||
		    where_fits(cp->cfg, &cp->cells[i], 1, why, sizeof(why)) == 0)
			continue;
		log_error("%s: %s: skipped", cp->cells[i].id, why);
		cp_skip(cp, i, why);
		cp->guest.want[i] = 0;
		guest_say(CHAN_START, "%s", cp->cells[i].id);
		cp_guest_report(cp, i, NULL);
	}
	cp_write(cp);
}

/*
 * The image the host booted should be the variant its match = describes
 * (a vmlinuz mixed up, a kernel built without PREEMPT_RT): if not, its
 * cells are skipped with why, rather than compared as something else.
 */
void cp_guest_check_kernel(struct campaign *cp)
{
	const struct kernel_def *k = &cp->cfg->kernel[cp->guest.v];
	char why[512];

	if (kernel_matches(k->match, &cp->kernel)) {
		guest_check_fits(cp);
		return;
	}
	snprintf(why, sizeof(why), "[kernel.%s] image booted %s (preempt %s), which is not match = %s",
		 k->name, cp->kernel.release, cp->kernel.model, k->match);
	log_error("%s: its cells are skipped", why);
	cp_give_up_variant(cp, cp->guest.v, why);
	for (int i = 0; i < cp->ncells; i++)
		if (cp->guest.want[i]) {
			guest_say(CHAN_START, "%s", cp->cells[i].id);
			cp_guest_report(cp, i, NULL);
		}
	cp_write(cp);
}

/* The cells the host gave this guest, of the variant it is. */
static int guest_runs_here(const struct campaign *cp, const struct cell *c)
{
	return c->kernel == cp->guest.v && cp->guest.want[c - cp->cells];
}

static void guest_cell_started(const struct campaign *cp, int i)
{
	guest_say(CHAN_START, "%s", cp->cells[i].id);
}

/* The end, whatever it was: the host learns the exit status. */
static void guest_end(struct campaign *cp, int status)
{
	(void)cp;
	guest_say(CHAN_DONE, "%d", status);
}

const struct cp_mode cp_guest_mode = {
	.name = "guest",
	.setup = cp_guest_setup,
	.facts = cp_guest_sysinfo,
	.opened = cp_guest_check_kernel,
	.runs_here = guest_runs_here,
	.cell_started = guest_cell_started,
	.cell_ended = cp_guest_report,
	.end = guest_end,
};
