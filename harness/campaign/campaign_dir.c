#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "campaign_run.h"
#include "cpulist.h"
#include "ledger.h"
#include "log.h"
#include "prior.h"

/* Move an earlier tree aside to NAME.<time>: results are never overwritten. */
static int keep_aside(const char *dir)
{
	char old[PATH_MAX + 32], stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(old, sizeof(old), "%s.%s", dir, stamp);
	if (rename(dir, old) != 0)
		return -errno;
	log_info("kept the previous results as %s", old);
	return 0;
}

/*
 * A run killed while writing leaves NAME.tmp.PID files (never a half file
 * under the real name). When resuming, those of a process that is gone
 * are removed.
 */
void cp_remove_stale_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		const char *t = strstr(e->d_name, ".tmp.");
		char path[PATH_MAX + 300];
		long pid;

		if (!t || sscanf(t + 5, "%ld", &pid) != 1 || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;	/* that writer may still live */
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

/*
 * One latlab per campaign: an flock on OUTPUT/.NAME.lock, taken before
 * the directory is touched (a --restart renames it) and held to the end.
 * Returns the descriptor, or -errno (-EWOULDBLOCK: in use).
 */
int cp_lock(const char *output, const char *name, char *holder,
	    size_t len)
{
	char path[PATH_MAX + 128];
	int fd, rc;

	holder[0] = '\0';
	rc = mkdir_p(output);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/.%s.lock", output, name);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		rc = -errno;
		ssize_t n = pread(fd, holder, len - 1, 0);

		holder[n > 0 ? n : 0] = '\0';
		holder[strcspn(holder, "\n")] = '\0';
		close(fd);
		return rc;
	}
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	/* the pid is for a second latlab's message; the lock is what counts */
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n)
		holder[0] = '\0';
	return fd;
}

/*
 * The campaign directory: new, or the same campaign to resume (returns
 * 1 and fills *prior), or -ESTALE when it holds another config's run.
 * With --restart, or when the directory holds no state, an earlier tree
 * is moved aside.
 */
int cp_prepare_dir(struct campaign *cp, const char *output,
		   struct prior *prior)
{
	struct stat st;
	char err[PATH_MAX + 256];
	int rc;

	if (snprintf(cp->dir, sizeof(cp->dir), "%s/%s", output,
		     cp->cfg->campaign.name) >= (int)sizeof(cp->dir))
		return -ENAMETOOLONG;
	if (stat(cp->dir, &st) == 0) {
		rc = cp->ro->restart ? -ENOENT : prior_read(cp->dir, prior, err, sizeof(err));
		/* the same config, or the one run found it extends (cp->extends) */
		if (rc == 0 && prior->hash != config_hash(cp->cfg) &&
		    (!cp->extends || prior->hash != cp->extends)) {
			prior_free(prior);
			return -ESTALE;
		}
		if (rc == 0) {
			cp_remove_stale_temps(cp->dir);
			return 1;
		}
		if (rc != -ENOENT) {
			/* a state that cannot be read is never taken for none */
			log_error("%s", err);
			return -EBADMSG;
		}
		rc = keep_aside(cp->dir);
		if (rc)
			return rc;
	}
	return mkdir_p(cp->dir);
}

int cp_extension(const struct config *cfg, const char *output, struct config **ext,
		 struct cp_tree_was *was, char *why, size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], err[PATH_MAX + 256];
	struct config *tree = NULL, *try = NULL;
	struct prior prior;
	int rc = 0;

	*ext = NULL;
	if (snprintf(dir, sizeof(dir), "%s/%s", output, cfg->campaign.name) >= (int)sizeof(dir) ||
	    prior_read(dir, &prior, err, sizeof(err)) != 0)
		return 0;
	if (prior.hash == config_hash(cfg))
		goto out;
	tree = malloc(sizeof(*tree));
	try = malloc(sizeof(*try));
	ledger_config_path(path, sizeof(path), dir);
	if (!tree || !try || config_load(tree, path, NULL, 0, err, sizeof(err)) != 0) {
		free(tree);
		tree = NULL;
		goto out;
	}
	/* cfg as the tree was run: do they differ in repeat alone? */
	*try = *cfg;
	try->campaign.repeat = tree->campaign.repeat;
	try->campaign.repeat_first = tree->campaign.repeat_first;
	if (config_hash(try) != prior.hash)
		goto out;
	if (cfg->campaign.repeat < tree->campaign.repeat) {
		snprintf(why, len, "%s holds %lld runs of each cell; this config asks for repeat = %lld: runs are never dropped (raise repeat to add runs, or keep it at %lld to resume)",
			 dir, (long long)tree->campaign.repeat, (long long)cfg->campaign.repeat,
			 (long long)tree->campaign.repeat);
		rc = -ERANGE;
		goto out;
	}
	try->campaign.repeat = cfg->campaign.repeat;
	if (!try->campaign.repeat_first)
		try->campaign.repeat_first = tree->campaign.repeat;
	if (was)
		*was = (struct cp_tree_was){ tree->campaign.repeat, prior.hash };
	*ext = try;
	try = NULL;
	rc = 1;
out:
	if (tree)
		config_free(tree);
	free(tree);
	free(try);
	prior_free(&prior);
	return rc;
}

double cp_cell_need(const struct campaign *cp, const struct cell *c)
{
	cpu_set_t online;

	cpulist_online(&online);
	double threads = c->threads == AXIS_ALL ? CPU_COUNT(&online) : c->threads;
	double need = 1048576.0 + threads * 262144.0;

	if (cp->cfg->campaign.samples)
		need += 1.2 * (double)cp->cfg->campaign.duration /
			(double)c->interval * threads * 40.0;
	return need;
}

int cp_check_space(const struct campaign *cp, const struct cell *c)
{
	struct statvfs vfs;
	double need = cp_cell_need(cp, c);

	if (statvfs(cp->dir, &vfs) != 0)
		return 0;	/* cannot tell: the writes will say */
	double avail = (double)vfs.f_bavail * (double)vfs.f_frsize;
	if (avail >= need)
		return 0;
	log_error("only %.1f MiB free under %s; a cell needs about %.1f MiB: stopping (what is done is kept)",
		  avail / 1048576, cp->dir, need / 1048576);
	return -ENOSPC;
}

