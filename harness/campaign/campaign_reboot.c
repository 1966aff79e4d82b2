#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argv.h"
#include "atomic.h"
#include "campaign_run.h"
#include "exitcodes.h"
#include "kexec.h"
#include "ledger.h"
#include "log.h"
#include "where.h"

/*
 * Started after a reboot latlab asked for: is it the variant it meant?
 * A wrong kernel is recorded; after boot_attempts tries the variant's
 * cells are given up, so a campaign never loops on a kernel that does
 * not come up.
 */
void cp_after_reboot(struct campaign *cp)
{
	const struct config *cfg = cp->cfg;
	int v = config_kernel_index(cfg, cp->lg.reboot_to);

	if (v >= 0 && kernel_matches(cfg->kernel[v].match, &cp->kernel)) {
		log_info("booted into kernel variant %s (%s), as planned",
			 cp->lg.reboot_to, cp->kernel.release);
	} else {
		log_error("a reboot into kernel variant %s was asked for, but %s is running (attempt %d of %lld)",
			  cp->lg.reboot_to, cp->kernel.release, v >= 0 ? cp->lg.boot_tries[v] : 0,
			  (long long)cfg->campaign.boot_attempts);
		if (v >= 0 && cp->lg.boot_tries[v] >= cfg->campaign.boot_attempts) {
			char why[256];

			snprintf(why, sizeof(why), "kernel variant %s did not come up after %d reboots",
				 cp->lg.reboot_to, cp->lg.boot_tries[v]);
			log_error("%s: its cells are given up", why);
			cp_give_up_variant(cp, v, why);
		}
	}
	cp->lg.reboot_to[0] = '\0';
	cp_write(cp);
}

/*
 * The resume unit (systemd/latlab-resume.service) runs `latlab run
 * $LATLAB_CONFIG -o $LATLAB_OUTPUT --reboot` at boot when RESUME_ENV
 * exists. The package ships it disabled: --reboot arms it for this
 * campaign before the first reboot (the tree's campaign.ini, its output)
 * and disarms it when there is nothing left to boot. A resume.env that
 * latlab did not write is the user's, and left alone.
 */
#define RESUME_ENV "/etc/latlab/resume.env"
#define RESUME_MARK "# written by latlab run --reboot"
#define RESUME_UNIT "latlab-resume.service"

static const char *resume_env(void)
{
	const char *env = getenv("LATLAB_RESUME_ENV");	/* the tests' own */

	return env && *env ? env : RESUME_ENV;
}

/* LATLAB_KEXEC_ROOT, the tests' own: where /boot is for reboot = kexec. */
static const char *kexec_root(void)
{
	const char *env = getenv("LATLAB_KEXEC_ROOT");

	return env ? env : "";
}

/* systemctl VERB the unit, quietly: 0, or why not in why. */
static int systemctl(const char *verb, char *why, size_t len)
{
	char *const argv[] = { "systemctl", "--quiet", (char *)verb, RESUME_UNIT, NULL };
	int st = argv_run(argv, 1);

	if (st < 0 || st >= ARGV_SIGNALLED)
		return fail_with(why, len, st < 0 ? st : -EINTR, "systemctl %s %s did not finish%s%s",
				 verb, RESUME_UNIT, st < 0 ? ": " : " (a signal ended it)",
				 st < 0 ? strerror(-st) : "");
	if (st == 127)
		return fail_with(why, len, -ENOENT, "no systemctl on PATH");
	if (st != 0)
		return fail_with(why, len, -EIO, "systemctl %s %s: exit %d", verb, RESUME_UNIT, st);
	return 0;
}

/* What resume.env says: 1 when latlab wrote it for the tree cfg_path, 0 not ours, -errno. */
static int resume_ours(const char *path, const char *cfg_path, int *same)
{
	char line[PATH_MAX + 64], want[PATH_MAX + 32];
	int ours = 0;
	FILE *fp = fopen(path, "re");

	*same = 0;
	if (!fp)
		return -errno;
	snprintf(want, sizeof(want), "LATLAB_CONFIG=%s\n", cfg_path);
	while (fgets(line, sizeof(line), fp)) {
		ours |= strncmp(line, RESUME_MARK, strlen(RESUME_MARK)) == 0;
		*same |= strcmp(line, want) == 0;
	}
	fclose(fp);
	return ours;
}

/*
 * Can systemd's EnvironmentFile carry path as it is? Its rules strip
 * trailing blanks, take backslashes and quotes as escapes and end a
 * value at a newline: such a path would be read as another (a newline in
 * -o added a LATLAB_OUTPUT= line of its own). The first character it
 * cannot carry, or 0.
 */
static int env_unsafe(const char *path)
{
	size_t n = strlen(path);

	if (n && (path[0] == ' ' || path[0] == '\t'))
		return path[0];
	if (n && (path[n - 1] == ' ' || path[n - 1] == '\t'))
		return path[n - 1];
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p < 0x20 || *p == 0x7f || strchr("\\\"'$%", *p))
			return *p;
	return 0;
}

int cp_reboot_check(const struct config *cfg, const char *output, char *why, size_t len)
{
	char abs[PATH_MAX], ini[PATH_MAX + OPT_STR_MAX + 64], line[PATH_MAX + OPT_STR_MAX + 64],
		other[PATH_MAX + OPT_STR_MAX + 64] = "";
	const char *path = resume_env();
	int bad = env_unsafe(output);
	FILE *fp;

	if (!bad)
		bad = env_unsafe(cfg->campaign.name);
	if (bad)
		return snprintf(why, len, "--reboot: the output %s/%s holds %s%c%s, which the resume unit's %s (systemd's EnvironmentFile) cannot carry as it is: choose another -o or campaign name",
				output, cfg->campaign.name, bad < 0x20 || bad == 0x7f ? "a control character" : "'",
				bad < 0x20 || bad == 0x7f ? ' ' : bad, bad < 0x20 || bad == 0x7f ? "" : "'", path),
		       -EINVAL;
	/* reboot = kexec: a kernel in /boot for it now, not at 3 a.m. */
	struct kernel_info k = { .release = "" };

	for (int v = 0; v < cfg->nkernels; v++) {
		char rel[128], kwhy[768];

		if (!kexec_is(cfg->kernel[v].reboot))
			continue;
		if (argv_runnable(KEXEC_REBOOT, kwhy, sizeof(kwhy)) != 0)
			return snprintf(why, len, "--reboot: [kernel.%s] reboot = kexec: no kexec on PATH (apt-get install kexec-tools)",
					cfg->kernel[v].name), -ENOENT;
		if (!k.release[0])	/* the running kernel, read once */
			kernel_info_read(&k);
		if (kexec_pick(kexec_root(), cfg->kernel[v].match, k.cmdline, rel, sizeof(rel), kwhy,
			       sizeof(kwhy)) != 0)
			return snprintf(why, len, "--reboot: [kernel.%s] reboot = kexec: %s",
					cfg->kernel[v].name, kwhy), -ENOENT;
	}
	/* another campaign's armed unit, mid-cycle: not taken over */
	if (!realpath(output, abs))
		snprintf(abs, sizeof(abs), "%s", output);
	snprintf(ini, sizeof(ini), "LATLAB_CONFIG=%s/%s/campaign.ini", abs, cfg->campaign.name);
	fp = fopen(path, "re");
	if (!fp)
		return 0;
	int ours = 0, same = 0;

	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		ours |= strncmp(line, RESUME_MARK, strlen(RESUME_MARK)) == 0;
		same |= strcmp(line, ini) == 0;
		if (strncmp(line, "LATLAB_CONFIG=", 14) == 0)
			snprintf(other, sizeof(other), "%s", line + 14);
	}
	fclose(fp);
	if (ours && !same)
		return snprintf(why, len, "--reboot: %s is armed for another campaign (LATLAB_CONFIG=%s), whose next boot it resumes: finish that campaign, or remove the file to give it up, before arming this one",
				path, other), -EBUSY;
	return 0;
}

/* The tree's campaign.ini and output as absolute paths, for the unit. */
static int resume_paths(const struct campaign *cp, char *ini, size_t ilen, char *out,
			size_t olen)
{
	char dir[PATH_MAX];

	if (!realpath(cp->dir, dir))
		return -errno;
	ledger_config_path(ini, ilen, dir);
	snprintf(out, olen, "%s", dir);
	char *slash = strrchr(out, '/');

	if (slash && slash != out)
		*slash = '\0';
	return 0;
}

/*
 * Before a reboot: resume.env names this campaign and the unit is
 * enabled. A failure is said, not fatal: the reboot still happens, and
 * the campaign resumes when latlab is run again by hand.
 */
static void resume_arm(const struct campaign *cp)
{
	const char *path = resume_env();
	char ini[PATH_MAX + 16], out[PATH_MAX], why[PATH_MAX + 128], dir[PATH_MAX];
	int same, rc;

	if (resume_paths(cp, ini, sizeof(ini), out, sizeof(out)) != 0) {
		log_warn("%s: %s: the resume unit is not armed", cp->dir, strerror(errno));
		return;
	}
	rc = resume_ours(path, ini, &same);
	if (rc == 0) {
		log_info("%s was not written by latlab: left as it is (the unit, if enabled, runs what it names)",
			 path);
		return;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');

	if (slash)
		*slash = '\0';
	if (slash && mkdir_p(dir) != 0) {
		log_warn("%s: %s: the resume unit is not armed", dir, strerror(errno));
		return;
	}
	struct afile af;

	rc = afile_open(&af, path);
	if (rc == 0) {
		fprintf(af.fp, "%s for campaign %s; removed when it is done (docs/campaigns.md)\n"
			"LATLAB_CONFIG=%s\nLATLAB_OUTPUT=%s\n", RESUME_MARK, cp->cfg->campaign.name,
			ini, out);
		rc = afile_commit(&af);
	}
	if (rc) {
		log_warn("%s: %s: the resume unit is not armed: after the boot, run latlab run %s -o %s --reboot",
			 path, strerror(-rc), ini, out);
		return;
	}
	if (systemctl("enable", why, sizeof(why)) != 0)
		log_warn("%s: the resume unit is not enabled: after the boot, run latlab run %s -o %s --reboot",
			 why, ini, out);
	else
		log_info("resume unit armed: %s names this campaign, %s enabled", path, RESUME_UNIT);
}

/* Nothing left to boot: the unit armed for this campaign disarmed. */
static void resume_disarm(const struct campaign *cp)
{
	const char *path = resume_env();
	char ini[PATH_MAX + 16], out[PATH_MAX], why[PATH_MAX + 128];
	int same;

	if (resume_paths(cp, ini, sizeof(ini), out, sizeof(out)) != 0 ||
	    resume_ours(path, ini, &same) != 1 || !same)
		return;
	if (unlink(path) != 0) {
		log_warn("%s: %s: remove it, or the resume unit keeps running latlab at boot",
			 path, strerror(errno));
		return;
	}
	if (systemctl("disable", why, sizeof(why)) != 0)
		log_warn("%s (%s removed: the unit does nothing at boot)", why, path);
	else
		log_info("resume unit disarmed: %s removed, %s disabled", path, RESUME_UNIT);
}

/*
 * reboot = kexec: variant v's kernel loaded, then systemd asked to boot
 * it. systemctl kexec's argv_run status, or -1 (said).
 */
static int reboot_kexec(const struct campaign *cp, int v)
{
	const struct kernel_def *kd = &cp->cfg->kernel[v];
	char rel[128], why[768];
	char *const argv[] = { "systemctl", "kexec", NULL };

	if (kexec_pick(kexec_root(), kd->match, cp->kernel.cmdline, rel, sizeof(rel), why,
		       sizeof(why)) != 0 ||
	    kexec_load(kexec_root(), rel, why, sizeof(why)) != 0) {
		log_error("[kernel.%s] reboot = kexec: %s", kd->name, why);
		return -1;
	}
	log_info("kexec: %s loaded for kernel variant %s, with this command line", rel, kd->name);
	return argv_run(argv, 0);
}

/*
 * --reboot: when nothing is left for this kernel, boot the first variant
 * with pending cells, a `reboot =` and attempts left. The intent goes to
 * the state file first (synced), then the reboot: its argv (no shell),
 * or kexec.
 */
int cp_reboot_next(struct campaign *cp)
{
	const struct config *cfg = cp->cfg;
	char **argv = NULL;
	int argc, v, rc, gave_up = 0;

	for (v = 0; v < cfg->nkernels; v++) {
		int pending = 0;

		if (where_variant(cfg, v, &cp->kernel) != WHERE_OTHER)
			continue;
		for (int i = 0; i < cp->ncells; i++)
			pending += cp->cells[i].kernel == v && !cp_done(cp->lg.status[i]);
		if (!pending || !cfg->kernel[v].reboot[0])
			continue;
		if (cp->lg.boot_tries[v] < cfg->campaign.boot_attempts)
			break;
		/* it came up (else cp_after_reboot gave it up) but went down mid-cell */
		char why[256];

		snprintf(why, sizeof(why), "kernel variant %s was booted %d times and went down before its cells were done (a power cut or a crash mid-cell: see the cells' .partial-N)",
			 cfg->kernel[v].name, cp->lg.boot_tries[v]);
		log_error("%s: its cells are given up", why);
		cp_give_up_variant(cp, v, why);
		gave_up = 1;
	}
	if (gave_up && (rc = cp_write(cp)) != 0)
		log_error("%s/state: %s", cp->dir, strerror(-rc));
	if (v == cfg->nkernels) {
		log_info("--reboot: no other kernel variant to boot: the campaign is as done as it can be here");
		resume_disarm(cp);
		return EXIT_PASS;
	}
	snprintf(cp->lg.reboot_to, sizeof(cp->lg.reboot_to), "%s", cfg->kernel[v].name);
	cp->lg.boot_tries[v]++;
	rc = cp_write(cp);
	sync();
	if (rc) {
		log_error("%s/state: writing it before the reboot: %s", cp->dir, strerror(-rc));
		return EXIT_RUNTIME;
	}
	int kexec = kexec_is(cfg->kernel[v].reboot);

	if (!kexec && argv_split(cfg->kernel[v].reboot, &argv, &argc)) {
		log_error("[kernel.%s] reboot: not a command", cfg->kernel[v].name);
		return EXIT_RUNTIME;
	}
	resume_arm(cp);
	log_info("rebooting into kernel variant %s (attempt %d): %s",
		 cfg->kernel[v].name, cp->lg.boot_tries[v], cfg->kernel[v].reboot);
	fflush(NULL);
	/* nothing is written after this: the latlab after the boot may lock */
	close(cp->lock_fd);
	cp->lock_fd = -1;
	rc = kexec ? reboot_kexec(cp, v) : argv_run(argv, 0);
	free(argv);
	/*
	 * A reboot under systemd stops this unit's processes: the command
	 * (systemctl, still waiting) or latlab itself may get SIGTERM while
	 * the machine goes down, as was asked — not a failure.
	 */
	if (rc == ARGV_SIGNALLED + SIGTERM || rc == ARGV_SIGNALLED + SIGKILL ||
	    rc == ARGV_SIGNALLED + SIGHUP || (rc != 0 && cp_signalled(cp))) {
		log_info("the reboot command for kernel variant %s was ended by a signal: the machine is going down, as asked",
			 cfg->kernel[v].name);
		return EXIT_PASS;
	}
	if (rc != 0) {
		log_error("the reboot command for kernel variant %s failed", cfg->kernel[v].name);
		return EXIT_RUNTIME;
	}
	log_info("the reboot command returned (a real reboot does not come back here)");
	return EXIT_PASS;
}
