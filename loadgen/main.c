/*
 * latload: load generators, alone or under latlab.
 *
 *   latload TYPE [OPTIONS] [--duration D]      run until D, or SIGTERM
 *   latload hackbench -g 10 -l 1000            like rt-tests' hackbench
 *   latload list
 *
 * On exit every instance prints one machine-readable line on stdout:
 *   latload-result type=T ops=N seconds=S ops_per_s=R
 * Under the harness, --ready-fd N gets one byte when the load can start and
 * --go-fd M is read until end-of-file before it does (ready/go), so every
 * instance starts together; --counters-fd K is the memory its workers
 * count in (LOAD_MAX_SLOTS x LOAD_SLOT_STRIDE 64-bit counters), which the
 * harness reads where the result line never came (an instance killed in a
 * write it could not leave).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exitcodes.h"
#include "load_ops.h"
#include "log.h"
#include "units.h"
#include "version.h"

/* main's state, shared with the signal thread */
static _Atomic int stop_flag;
static int64_t duration_ns;		/* 0: until SIGTERM */
static _Atomic int64_t deadline_ns;	/* 0: none yet (set at go) */

/* Takes SIGTERM/SIGINT and the duration's end; only sets the flag. */
static void *signal_thread(void *arg)
{
	sigset_t *sigs = arg;

	while (!atomic_load(&stop_flag)) {
		struct timespec wait = { 0, 50 * NS_PER_MS };
		int sig = sigtimedwait(sigs, NULL, &wait);

		int64_t end = atomic_load(&deadline_ns);

		if (sig > 0 || (end && mono_ns() >= end))
			atomic_store(&stop_flag, 1);
	}
	return NULL;
}

static int ready_go(struct load_ctx *ctx)
{
	char byte = 'r', buf[64];
	ssize_t n;

	if (ctx->ready_fd >= 0) {
		if (write(ctx->ready_fd, &byte, 1) != 1)
			return -errno;
		close(ctx->ready_fd);
		ctx->ready_fd = -1;
	}
	if (ctx->go_fd >= 0) {
		/* go is the harness closing its end: read returns 0 */
		while ((n = read(ctx->go_fd, buf, sizeof(buf))) != 0)
			if (n < 0 && errno != EINTR)
				return -errno;
		close(ctx->go_fd);
		ctx->go_fd = -1;
	}
	ctx->go_ns = mono_ns();
	if (duration_ns)
		atomic_store(&deadline_ns, ctx->go_ns + duration_ns);
	return 0;
}

struct args {
	int64_t duration;
	int ready_fd, go_fd, counters_fd;
};

static int parse_duration(const char *arg, void *field)
{
	int64_t *ns = field;

	if (units_parse_duration(arg, ns) || *ns <= 0) {
		log_error("--duration '%s' is not a duration with a unit (ns us ms s m h)", arg);
		return -EINVAL;
	}
	return 0;
}

static int parse_fd(const char *arg, void *field)
{
	int64_t v;

	if (units_parse_int(arg, &v) || v < 0 || v > 65535) {
		log_error("bad file descriptor '%s'", arg);
		return -EINVAL;
	}
	*(int *)field = (int)v;
	return 0;
}

#define A(f) offsetof(struct args, f)

/* latload's own options, beside every type's (the descriptors are the harness's: not shown) */
static const struct cli_opt latload_cli[] = {
	{ "duration", 0, "D", CLI_CALL, A(duration), parse_duration,
	  "run for D, then print the result (default: until SIGTERM)" },
	{ "ready-fd", 0, "FD", CLI_CALL, A(ready_fd), parse_fd, NULL },
	{ "go-fd", 0, "FD", CLI_CALL, A(go_fd), parse_fd, NULL },
	{ "counters-fd", 0, "FD", CLI_CALL, A(counters_fd), parse_fd, NULL },
	{ NULL, 0, NULL, CLI_FLAG, 0, NULL, NULL },
};

static void usage(FILE *fp)
{
	fprintf(fp, "usage: latload TYPE [OPTIONS] [--duration D]\n"
		    "       latload list\n\ntypes:\n");
	for (int i = 0; load_registry[i]; i++)
		fprintf(fp, "  %-10s %s\n", load_registry[i]->name,
			load_registry[i]->help);
	fprintf(fp, "\nlatload TYPE --help shows a type's options.\n");
}

static void type_help(const struct load_ops *ops, FILE *fp)
{
	char def[64];

	fprintf(fp, "usage: latload %s [OPTIONS] [--duration D]\n%s\n\n",
		ops->name, ops->help);
	for (const struct opt *o = ops->options; o && o->key; o++) {
		snprintf(def, sizeof(def), "%s", o->def ? o->def : "");
		if (o->short_opt)
			fprintf(fp, "  -%c, --%-12s", o->short_opt, o->key);
		else
			fprintf(fp, "      --%-12s", o->key);
		fprintf(fp, " %-9s default %-8s %s%s%s\n", opt_type_name(o), def,
			o->help, o->choices ? ": " : "",
			o->choices ? o->choices : "");
	}
	for (const struct cli_flag *f = ops->flags; f && f->letter; f++)
		fprintf(fp, "  -%c, --%-12s %s (%s = %s)\n", f->letter, f->name, f->help, f->key,
			f->value);
	cli_opts_help(latload_cli, fp);
}

static int list_types(void)
{
	for (int i = 0; load_registry[i]; i++) {
		type_help(load_registry[i], stdout);
		printf("\n");
	}
	return EXIT_PASS;
}

/*
 * argv (argv[0] the type) by latload's table and the type's (its option
 * rows and flags: common/cliopt.h, as latlab's commands are read). 0; -1
 * when --help was given (printed); or EXIT_USAGE, said.
 */
static int parse_args(const struct load_ops *ops, void *opts, int argc,
		      char **argv, struct args *a)
{
	const struct cli_table t[] = {
		{ latload_cli, a, NULL, NULL },
		{ NULL, opts, ops->options, ops->flags },
	};
	char err[256];
	int first;

	switch (cli_opts_parse(t, 2, CLI_OPTIONS_FIRST, argc, argv, &first)) {
	case CLI_PARSED:
		break;
	case CLI_HELP:
		type_help(ops, stdout);
		return -1;
	case CLI_UNKNOWN:
		fprintf(stderr, "latload %s --help lists the options\n", ops->name);
		return EXIT_USAGE;
	default:
		return EXIT_USAGE;
	}
	if (first != argc) {
		log_error("unexpected argument '%s'", argv[first]);
		return EXIT_USAGE;
	}
	if (ops->check && ops->check(opts, err, sizeof(err))) {
		log_error("%s", err);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * The counters the load's workers share (and the harness's, given as a
 * file by --counters-fd, closed here): mapped, or MAP_FAILED, said.
 */
static uint64_t *map_counters(const struct args *a, const char *name, size_t len)
{
	struct stat cst;
	uint64_t *slots = a->counters_fd < 0 ?
		mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0) :
		fstat(a->counters_fd, &cst) != 0 || !S_ISREG(cst.st_mode) ||
		cst.st_size < (off_t)len ? (errno = EINVAL, MAP_FAILED) :
		mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, a->counters_fd, 0);

	if (a->counters_fd >= 0)
		close(a->counters_fd);
	if (slots == MAP_FAILED)
		log_error("%s: the counters shared with its workers (mmap of %zu bytes): %s",
			  name, len, strerror(errno));
	return slots;
}

/*
 * SIGTERM and SIGINT (into sigs) are taken by one thread with
 * sigtimedwait: blocked before any thread or child exists (children
 * unblock them); SIGCHLD too, so that loads with children can wait for
 * it; SIGPIPE ignored.
 */
static void block_signals(sigset_t *sigs)
{
	sigset_t chld;

	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	sigemptyset(sigs);
	sigaddset(sigs, SIGTERM);
	sigaddset(sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, sigs, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * The load's count, said as the harness reads it (and as hackbench's
 * "Time:" for a finite run), done ops between go (or t0) and t1.
 */
static void say_result(const struct load_ops *ops, const struct load_ctx *ctx, int64_t done,
		       int64_t t0, int64_t t1)
{
	/*
	 * a testing aid: an instance that never says its count (stuck in a
	 * write, as a guest's disk load was at its cell's end): the harness
	 * kills it after its grace and reads its counters
	 */
	if (getenv("LATLOAD_HANG_AT_END")) {
		sigset_t all;

		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		for (;;)
			pause();
	}
	/* a testing aid: the harness's judgement of a load that did no work */
	const char *fake = getenv("LATLOAD_FAKE_OPS");

	if (fake && *fake)
		done = strtoll(fake, NULL, 10);
	double secs = (double)(t1 - (ctx->go_ns ? ctx->go_ns : t0)) / NS_PER_S;

	if (strcmp(ops->name, "hackbench") == 0 && ctx->finite)
		printf("Time: %.3f\n", secs);
	printf("latload-result type=%s ops=%lld seconds=%.3f ops_per_s=%.1f\n",
	       ops->name, (long long)done, secs, secs > 0 ? done / secs : 0.0);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const struct load_ops *ops;
	struct args a = { .ready_fd = -1, .go_fd = -1, .counters_fd = -1 };
	sigset_t sigs;
	pthread_t sig_tid;
	void *opts;
	int rc;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("latload %s\n", version_text());
		return EXIT_PASS;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_PASS;
	}
	if (load_registry_check(load_registry) != 0)
		return EXIT_RUNTIME;
	if (strcmp(argv[1], "list") == 0)
		return list_types();
	ops = load_find(argv[1]);
	if (!ops) {
		log_error("unknown load type '%s'", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	opts = calloc(1, ops->opts_size ? ops->opts_size : 1);
	if (!opts)
		return EXIT_RUNTIME;
	opt_defaults(ops->options, opts);
	rc = parse_args(ops, opts, argc - 1, argv + 1, &a);
	if (rc) {
		free(opts);
		return rc < 0 ? EXIT_PASS : rc;
	}

	/* shared with forked workers: their counters (and the harness's, given) */
	size_t slots_len = LOAD_COUNTERS_BYTES;
	uint64_t *slots = map_counters(&a, ops->name, slots_len);

	if (slots == MAP_FAILED) {
		free(opts);
		return EXIT_RUNTIME;
	}
	block_signals(&sigs);

	struct load_ctx ctx = {
		.opts = opts,
		.stop = &stop_flag,
		.slot = slots,
		.nslots = LOAD_MAX_SLOTS,
		.ready = ready_go,
		.ready_fd = a.ready_fd,
		.go_fd = a.go_fd,
		.finite = a.duration == 0 && a.ready_fd < 0,
	};
	/* what the machine must have, said before ready (never after) */
	if (ops->preflight) {
		const char *key = NULL;
		char why[512];

		if (ops->preflight(opts, &key, why, sizeof(why)) != 0) {
			log_error("%s: %s", ops->name, why);
			munmap(slots, slots_len);
			free(opts);
			return EXIT_RUNTIME;
		}
	}
	/* the duration counts from go; until then, no deadline */
	rc = pthread_create(&sig_tid, NULL, signal_thread, &sigs);
	if (rc) {
		log_error("%s: its signal thread (pthread_create): %s", ops->name, strerror(rc));
		munmap(slots, slots_len);
		free(opts);
		return EXIT_RUNTIME;
	}
	duration_ns = a.duration;
	int64_t t0 = mono_ns();
	int64_t done = ops->run(&ctx);
	int64_t t1 = mono_ns();
	atomic_store(&stop_flag, 1);
	pthread_join(sig_tid, NULL);

	if (done < 0) {
		if (done != LOAD_SAID)
			log_error("%s: %s", ops->name, strerror((int)-done));
		munmap(slots, slots_len);
		free(opts);
		return EXIT_RUNTIME;
	}
	say_result(ops, &ctx, done, t0, t1);
	munmap(slots, slots_len);
	free(opts);
	return EXIT_PASS;
}
