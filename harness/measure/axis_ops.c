#include "axis_ops.h"

/* each axis's hooks, in its own file */
extern const struct axis_ops idle_axis_ops, isolation_axis_ops, numa_axis_ops, throttle_axis_ops,
	smt_axis_ops;

const struct axis_ops *const axis_hooks[TAXIS_COUNT] = {
	[TAXIS_NUMA] = &numa_axis_ops,
	[TAXIS_ISOLATION] = &isolation_axis_ops,
	[TAXIS_IDLE] = &idle_axis_ops,
	[TAXIS_THROTTLE] = &throttle_axis_ops,
	[TAXIS_SMT] = &smt_axis_ops,
};

int64_t axis_ops_value(const struct config *cfg, const struct cell *c, int a)
{
	return cfg->matrix.ax[a].n ? cell_axis_value(cfg, c, a) : axis_hooks[a]->as_is;
}

/* Does a hooked axis of c have a value other than its as_is, and a begin (else a check)? */
static int any_with(const struct config *cfg, const struct cell *c, int begin)
{
	for (int a = 0; a < TAXIS_COUNT; a++) {
		const struct axis_ops *ops = axis_hooks[a];

		if (ops && (begin ? ops->begin != NULL : ops->check != NULL) &&
		    axis_ops_value(cfg, c, a) != ops->as_is)
			return 1;
	}
	return 0;
}

int axis_ops_first_set(const struct config *cfg, const struct cell *c)
{
	for (int a = 0; a < TAXIS_COUNT; a++)
		if (axis_hooks[a] && axis_ops_value(cfg, c, a) != axis_hooks[a]->as_is)
			return a;
	return -1;
}

int axis_ops_any(const struct config *cfg, const struct cell *c)
{
	return any_with(cfg, c, 1);
}

int axis_ops_checks(const struct config *cfg, const struct cell *c)
{
	return any_with(cfg, c, 0);
}

const char *const *axis_undo_roots(void)
{
	/* undo_roots, then each axis's: fits every root there is */
	static const char *roots[32];

	if (!roots[0]) {
		int n = 0;

		for (int i = 0; undo_roots[i] && n < 31; i++)
			roots[n++] = undo_roots[i];
		for (int a = 0; a < TAXIS_COUNT; a++)
			for (int i = 0; axis_hooks[a] && axis_hooks[a]->roots && axis_hooks[a]->roots[i] &&
					n < 31; i++)
				roots[n++] = axis_hooks[a]->roots[i];
		roots[n] = NULL;
	}
	return roots;
}
