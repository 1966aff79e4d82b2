/*
 * junit.xml, for Jenkins and GitLab: one writer for the campaign's (a
 * testcase per cell, latlab run) and compare --baseline's (a testcase per
 * row and side).
 */
#ifndef LATLAB_JUNIT_H
#define LATLAB_JUNIT_H

#include <stdio.h>

enum junit_result { JUNIT_PASS, JUNIT_FAILURE, JUNIT_ERROR, JUNIT_SKIPPED };

struct junit_case {
	const char *classname, *name;
	double time_s;		/* < 0: no time attribute */
	enum junit_result result;
	const char *type;	/* a failure's or an error's type; NULL: none */
	const char *message;	/* of a failure, an error or a skip */
	const char *out;	/* what a passed case has to say (<system-out>); NULL: nothing */
};

struct junit_suite {
	const char *name;
	/*
	 * latlab run's form: <testsuites> around the suite, and its errors
	 * and skipped counted; otherwise tests and failures only.
	 */
	int full;
};

/*
 * The suite of n cases to fp, every name and message escaped; get(i, c,
 * arg) fills case i (called twice a case: the counts come first).
 */
void junit_write(FILE *fp, const struct junit_suite *s, int n,
		 void (*get)(int i, struct junit_case *c, void *arg), void *arg);

#endif
