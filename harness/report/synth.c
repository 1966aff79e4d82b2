#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "synth.h"
#include "tailfit.h"
#include "timeline.h"
#include "units.h"

#define MAX_ARGS 5

double synth_uniform(struct synth_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;	/* (0, 1) */
}

/* A generalized Pareto's quantile at survival u. */
static double gpd_inv(double u, double scale, double xi)
{
	return fabs(xi) < 1e-9 ? -scale * log(u) : scale * expm1(-xi * log(u)) / xi;
}

static double normal(struct synth_rng *r)
{
	return sqrt(-2 * log(synth_uniform(r))) * cos(2 * M_PI * synth_uniform(r));
}

static double draw_base(const struct synth_law *l, struct synth_rng *r)
{
	switch (l->kind) {
	case SYNTH_EXP:
		return l->loc - l->scale * log(synth_uniform(r));
	case SYNTH_GPD:
		return l->loc + gpd_inv(synth_uniform(r), l->scale, l->xi);
	case SYNTH_WEIBULL:
		return l->loc + l->scale * pow(-log(synth_uniform(r)), 1 / l->k);
	default:
		if (l->w > 0 && synth_uniform(r) < l->w)
			return l->median + gpd_inv(synth_uniform(r), l->scale, l->xi);
		return l->median * exp(l->s * normal(r));
	}
}

double synth_draw(const struct synth_law *law, struct synth_rng *r)
{
	double x = draw_base(law, r);

	if (law->spike_p > 0 && synth_uniform(r) < law->spike_p)
		x *= law->spike_f;
	return x > 0 ? x : 0;
}

void synth_blocks(const struct synth_law *law, struct synth_rng *r, long long n, int nblocks,
		  struct hist *h, uint64_t (*block)[TL_BINS])
{
	long long left = 0;
	double x = 0;

	for (long long i = 0; i < n; i++) {
		if (left == 0) {	/* a new draw, repeated burst times */
			x = synth_draw(law, r);
			left = law->burst > 1 ? law->burst : 1;
		}
		left--;
		int ticked = law->tick_every > 0 && i % law->tick_every == law->tick_every - 1;
		long long ns = llround(ticked ? x + law->tick_ns : x);

		hist_add(h, ns);
		if (nblocks > 0)
			block[i * nblocks / n][timeline_bin(ns)]++;
	}
}

void synth_hist(const struct synth_law *law, struct synth_rng *r, long long n, struct hist *h)
{
	synth_blocks(law, r, n, 0, h, NULL);
}

static double sf_base(const struct synth_law *l, double x)
{
	switch (l->kind) {
	case SYNTH_EXP:
		return x <= l->loc ? 1 : exp(-(x - l->loc) / l->scale);
	case SYNTH_GPD:
		return tailfit_gpd_sf(x - l->loc, l->scale, l->xi);
	case SYNTH_WEIBULL:
		return x <= l->loc ? 1 : exp(-pow((x - l->loc) / l->scale, l->k));
	default: {
		double body = x <= 0 ? 1 : 0.5 * erfc(log(x / l->median) / (l->s * M_SQRT2));

		return (1 - l->w) * body + l->w * tailfit_gpd_sf(x - l->median, l->scale, l->xi);
	}
	}
}

double synth_sf(const struct synth_law *law, double x)
{
	double sf = sf_base(law, x);

	if (law->spike_p > 0)
		sf = (1 - law->spike_p) * sf + law->spike_p * sf_base(law, x / law->spike_f);
	if (law->tick_every > 0) {	/* a period taken at random: a tick's with 1/N */
		struct synth_law untick = *law;

		untick.tick_every = 0;
		sf += (synth_sf(&untick, x - law->tick_ns) - sf) / law->tick_every;
	}
	return sf;
}

/* The comma-separated words of s, each a duration (ns) where dur[i] says so. */
static int args(const char *s, const int *dur, int want, double *v, char *err, size_t len)
{
	char buf[256];
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		char *end;
		int64_t ns;

		if (n == want)
			break;
		if (dur[n]) {
			if (units_parse_duration(w, &ns) != 0 || ns <= 0) {
				snprintf(err, len, "'%s' is not a duration above 0 (10us)", w);
				return -EINVAL;
			}
			v[n++] = (double)ns;
			continue;
		}
		v[n] = strtod(w, &end);
		if (end == w || *end || !isfinite(v[n])) {
			snprintf(err, len, "'%s' is not a number", w);
			return -EINVAL;
		}
		n++;
	}
	return n;
}

/* The "+spikes:P,F", "+bursts:L" and "+tick:N,EXTRA" after a law, from its first '+', into law. */
static int modifiers(const char *plus, struct synth_law *law, char *err, size_t len)
{
	static const int spike_dur[] = { 0, 0 }, tick_dur[] = { 0, 1 };
	double v[MAX_ARGS];
	int n;

	for (const char *at = plus; at; at = strchr(at + 1, '+')) {
		const char *next = strchr(at + 1, '+');
		char m[64];

		snprintf(m, sizeof(m), "%.*s", next ? (int)(next - at) : (int)strlen(at), at);
		if (strncmp(m, "+spikes:", 8) == 0) {
			n = args(m + 8, spike_dur, 2, v, err, len);
			if (n == -EINVAL)
				return n;
			if (n != 2 || v[0] < 0 || v[0] > 1 || v[1] < 1) {
				snprintf(err, len, "'%s': spikes:P,F with P in [0, 1] and F >= 1", m + 1);
				return -EINVAL;
			}
			law->spike_p = v[0], law->spike_f = v[1];
		} else if (strncmp(m, "+bursts:", 8) == 0) {
			n = args(m + 8, spike_dur, 1, v, err, len);
			if (n == -EINVAL)
				return n;
			if (n != 1 || v[0] < 1 || v[0] > 1e6 || v[0] != floor(v[0])) {
				snprintf(err, len, "'%s': bursts:L with L a whole number from 1", m + 1);
				return -EINVAL;
			}
			law->burst = (int)v[0];
		} else if (strncmp(m, "+tick:", 6) == 0) {
			n = args(m + 6, tick_dur, 2, v, err, len);
			if (n == -EINVAL)
				return n;
			if (n != 2 || v[0] < 2 || v[0] > 1e6 || v[0] != floor(v[0])) {
				snprintf(err, len, "'%s': tick:N,EXTRA with N a whole number from 2 and EXTRA a duration (15us)",
					 m + 1);
				return -EINVAL;
			}
			law->tick_every = (int)v[0], law->tick_ns = v[1];
		} else {
			snprintf(err, len, "'%s': not a modifier (+spikes:P,F, +bursts:L, +tick:N,EXTRA)", m);
			return -EINVAL;
		}
	}
	return 0;
}

int synth_parse(const char *text, struct synth_law *law, char *err, size_t len)
{
	static const int exp_dur[] = { 1, 1 }, gpd_dur[] = { 1, 1, 0 },
			 ln_dur[] = { 1, 0, 0, 1, 0 };
	char head[256];
	const char *plus = strchr(text, '+');
	double v[MAX_ARGS];
	int n;

	memset(law, 0, sizeof(*law));
	snprintf(head, sizeof(head), "%.*s", plus ? (int)(plus - text) : (int)strlen(text), text);
	if (strncmp(head, "exp:", 4) == 0) {
		law->kind = SYNTH_EXP;
		n = args(head + 4, exp_dur, 2, v, err, len);
		if (n == 2)
			law->loc = v[0], law->scale = v[1];
	} else if (strncmp(head, "gpd:", 4) == 0) {
		law->kind = SYNTH_GPD;
		n = args(head + 4, gpd_dur, 3, v, err, len);
		if (n == 3)
			law->loc = v[0], law->scale = v[1], law->xi = v[2];
	} else if (strncmp(head, "weibull:", 8) == 0) {
		law->kind = SYNTH_WEIBULL;
		n = args(head + 8, gpd_dur, 3, v, err, len);
		if (n == 3)
			law->loc = v[0], law->scale = v[1], law->k = v[2];
		if (n == 3 && !(law->k > 0)) {
			snprintf(err, len, "'%s': the shape K above 0", head);
			return -EINVAL;
		}
	} else if (strncmp(head, "lognormal:", 10) == 0) {
		law->kind = SYNTH_LOGNORMAL;
		n = args(head + 10, ln_dur, 5, v, err, len);
		if (n == 2 || n == 5)
			law->median = v[0], law->s = v[1];
		if (n == 5)
			law->w = v[2], law->scale = v[3], law->xi = v[4];
		else if (n == 4 || n == 3)
			n = -1;
	} else {
		snprintf(err, len, "'%s': not a law (exp:LOC,SCALE, gpd:LOC,SCALE,XI, weibull:LOC,SCALE,K, lognormal:MEDIAN,S[,W,SCALE,XI])",
			 head);
		return -EINVAL;
	}
	if (n == -EINVAL)
		return n;
	if (n < 2 || ((law->kind == SYNTH_GPD || law->kind == SYNTH_WEIBULL) && n < 3) || n < 0) {
		snprintf(err, len, "'%s': too few values", head);
		return -EINVAL;
	}
	if (law->xi < -0.5 || law->xi > 2 || law->s < 0 || law->w < 0 || law->w > 1) {
		snprintf(err, len, "'%s': XI in [-0.5, 2], S >= 0, W in [0, 1]", head);
		return -EINVAL;
	}
	return plus ? modifiers(plus, law, err, len) : 0;
}
