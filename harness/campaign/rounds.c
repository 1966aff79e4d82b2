/*
 * How a kernel variant's cells are cut into rounds and boots: arithmetic
 * on the config alone, which the campaign (run_cells), the pool of guests
 * side by side and the estimate all need — apart from each, so that none
 * of them calls into another for it.
 */
#include "rounds.h"

int cp_icount_guest(const struct kernel_def *k)
{
	return k->runner == RUNNER_QEMU && k->clock == CLOCK_ICOUNT;
}

/* Does an instruction-clock variant run several rounds a boot (boots = shared)? */
static int shares_boots(const struct kernel_def *k)
{
	return cp_icount_guest(k) && k->boots == 0;
}

int cp_rounds_of(const struct config *cfg)
{
	return cfg->campaign.order == ORDER_BLOCKED ? 1 : (int)cfg->campaign.repeat;
}

/* An instruction-clock variant's boots, each holding some of `rounds`. */
static int icount_boots(const struct config *cfg, int rounds, int jobs)
{
	int others = 0;

	/* the instruction-clock variants of the kernel axis share the jobs */
	for (int i = 0; i < cfg->matrix.kernel.n; i++) {
		int k = config_kernel_index(cfg, cfg->matrix.kernel.s[i]);

		others += k >= 0 && cp_icount_guest(&cfg->kernel[k]);
	}
	if (others < 1)
		others = 1;
	int n = (jobs + others - 1) / others;

	return n < 1 ? 1 : n > rounds ? rounds : n;
}

int cp_boots_at(const struct config *cfg, int v, int round, int jobs)
{
	if (!shares_boots(&cfg->kernel[v]))
		return 1;
	/* all of them at the first round */
	return round <= 1 ? icount_boots(cfg, cp_rounds_of(cfg), jobs) : 0;
}

struct cp_rounds cp_boot_at(const struct config *cfg, int v, int round, int jobs, int b)
{
	int rounds = cp_rounds_of(cfg);

	if (!shares_boots(&cfg->kernel[v]) || rounds <= 1)
		return (struct cp_rounds){ round, round };
	/* rounds split evenly, the first boots a round more */
	int n = icount_boots(cfg, rounds, jobs);
	int each = rounds / n, more = rounds % n;
	int first = 1 + b * each + (b < more ? b : more);

	return (struct cp_rounds){ first, first + each - 1 + (b < more) };
}
