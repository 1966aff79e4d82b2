/* Exit statuses shared by latlab and latload (docs/exit-status.md). */
#ifndef LATLAB_EXITCODES_H
#define LATLAB_EXITCODES_H

enum {
	EXIT_PASS = 0,		/* every cell ran and passed its thresholds */
	EXIT_THRESHOLD = 1,	/* a threshold failed */
	EXIT_USAGE = 2,		/* usage or config error; nothing written */
	EXIT_RUNTIME = 3,	/* no RT privilege, I/O error, disk full */
	EXIT_INTERRUPTED = 130,	/* SIGINT/SIGTERM; results so far kept */
};

#endif
