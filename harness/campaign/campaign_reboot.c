#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "argv.h"
#include "campaign_run.h"
#include "exitcodes.h"
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
 * --reboot: when nothing is left for this kernel, boot the first variant
 * with pending cells, a `reboot =` argv and attempts left. The intent goes
 * to the state file first (synced), then the argv runs (no shell).
 */
int cp_reboot_next(struct campaign *cp)
{
	const struct config *cfg = cp->cfg;
	char **argv;
	int argc, v, st, rc;

	for (v = 0; v < cfg->nkernels; v++) {
		int pending = 0;

		if (where_variant(cfg, v, &cp->kernel) != WHERE_OTHER)
			continue;
		for (int i = 0; i < cp->ncells; i++)
			pending += cp->cells[i].kernel == v && !cp_done(cp->lg.status[i]);
		if (pending && cfg->kernel[v].reboot[0] &&
		    cp->lg.boot_tries[v] < cfg->campaign.boot_attempts)
			break;
	}
	if (v == cfg->nkernels) {
		log_info("--reboot: no other kernel variant to boot: the campaign is as done as it can be here");
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
	if (argv_split(cfg->kernel[v].reboot, &argv, &argc)) {
		log_error("[kernel.%s] reboot: not a command", cfg->kernel[v].name);
		return EXIT_RUNTIME;
	}
	log_info("rebooting into kernel variant %s (attempt %d): %s",
		 cfg->kernel[v].name, cp->lg.boot_tries[v], cfg->kernel[v].reboot);
	fflush(NULL);
	/* nothing is written after this: the latlab after the boot may lock */
	close(cp->lock_fd);
	cp->lock_fd = -1;
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "latlab: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(argv);
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		log_error("the reboot command for kernel variant %s failed", cfg->kernel[v].name);
		return EXIT_RUNTIME;
	}
	log_info("the reboot command returned (a real reboot does not come back here)");
	return EXIT_PASS;
}

