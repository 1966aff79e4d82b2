#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "exitcodes.h"
#include "export.h"
#include "log.h"
#include "results.h"
#include "samples.h"

static const char *const metric_names[] = { "wakeup", "io", "response" };

static int csv_row(void *arg, const struct sample_rec *r)
{
	struct csvw *w = arg;

	for (int m = 0; m < 3; m++) {
		csvw_int(w, r->t_ns);
		csvw_int(w, r->thread);
		csvw_str(w, metric_names[m]);
		csvw_int(w, r->value_ns[m]);
		csvw_end(w);
	}
	return ferror(w->fp) ? -EIO : 0;
}

int export_run(const char *format, const char *path, const char *out)
{
	char bin[PATH_MAX];
	struct stat st;
	struct afile af;
	FILE *fp = stdout;
	int rc;

	if (strcmp(format, "csv") != 0) {
		log_error("unknown export format '%s' (csv)", format);
		return EXIT_USAGE;
	}
	if (stat(path, &st) != 0) {
		log_error("%s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	if (S_ISDIR(st.st_mode))
		snprintf(bin, sizeof(bin), "%s/samples.bin", path);
	else
		snprintf(bin, sizeof(bin), "%s", path);
	/* validate the input before anything is written */
	rc = samples_read(bin, NULL, NULL);
	if (rc == -ENOENT) {
		log_error("%s: no samples.bin (run with [campaign] samples = on)", bin);
		return EXIT_USAGE;
	}
	if (rc == -EINVAL) {
		log_error("%s: not a latlab samples file", bin);
		return EXIT_USAGE;
	}
	if (rc) {
		log_error("%s: %s", bin, strerror(-rc));
		return EXIT_RUNTIME;
	}
	if (out) {
		rc = afile_open(&af, out);
		if (rc) {
			log_error("%s: %s", out, strerror(-rc));
			return EXIT_RUNTIME;
		}
		fp = af.fp;
	}
	struct csvw w = { .fp = fp };
	csvw_header(&w, "t_ns,thread,metric,value_ns");
	rc = samples_read(bin, csv_row, &w);
	if (rc == -EIO && ferror(fp)) {
		/* the output failed, not the input; a reader that closed the
		 * pipe (| head) is not an error */
		int err = errno;

		if (out)
			afile_abort(&af);
		if (!out && err == EPIPE)
			return EXIT_PASS;
		log_error("writing %s: %s", out ? out : "the output",
			  strerror(err));
		return EXIT_RUNTIME;
	}
	if (rc == 0 && out)
		rc = afile_commit(&af);
	else if (out)
		afile_abort(&af);
	if (rc) {
		log_error("%s: %s", out ? out : bin, strerror(-rc));
		return EXIT_RUNTIME;
	}
	if (!out && fflush(stdout) != 0) {	/* a file was committed above */
		log_error("writing the output: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	return EXIT_PASS;
}
