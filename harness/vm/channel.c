#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"

/*
 * A sysinfo.ini is a few KB and is held in memory: 1 MiB. A cell's file
 * streams to disk (samples.bin of a long cell is large): CHAN_BLOB_MAX,
 * and the campaign's disk checks.
 */
const struct chan_verb_def chan_verbs[CHAN_NVERBS] = {
	[CHAN_HELLO] = { "hello", 0, 0 },
	[CHAN_SYSINFO] = { "sysinfo", 1, 1 << 20 },
	[CHAN_LOG] = { "log", 0, 0 },
	[CHAN_START] = { "start", 0, 0 },
	[CHAN_FILE] = { "file", 1, CHAN_BLOB_MAX },
	[CHAN_BRIEF] = { "brief", 0, 0 },
	[CHAN_CELL] = { "cell", 0, 0 },
	[CHAN_DONE] = { "done", 0, 0 },
};

char *chan_clean(char *s)
{
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

/* The last blank-separated word of s as a size. */
static int last_size(const char *s, uint64_t *size)
{
	const char *w = strrchr(s, ' ');
	char *end;

	w = w ? w + 1 : s;
	if (*w < '0' || *w > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(w, &end, 10);
	if (*end || errno || v > (unsigned long long)CHAN_BLOB_MAX)
		return -1;
	*size = v;
	return 0;
}

int chan_parse(char *line, char **args, uint64_t *size)
{
	size_t magic = strlen(CHAN_MAGIC);
	char *verb, *sp;

	if (strncmp(line, CHAN_MAGIC, magic) != 0)
		return -1;
	verb = line + magic;
	sp = strchr(verb, ' ');
	*args = sp ? (*sp = '\0', sp + 1) : verb + strlen(verb);
	*size = 0;
	for (int v = 0; v < CHAN_NVERBS; v++) {
		if (strcmp(verb, chan_verbs[v].name) != 0)
			continue;
		if (chan_verbs[v].blob && last_size(*args, size) != 0)
			return -1;
		return v;
	}
	return -1;
}

void chan_brief_format(const struct chan_brief *b, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64
		 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64,
		 b->samples, b->overruns, b->errors, b->wakeup[0], b->wakeup[1],
		 b->wakeup[2], b->wakeup[3], b->wakeup[4], b->response_p99,
		 b->response_max);
	if (b->why[0]) {	/* the rest of the line; one line whatever it holds */
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " why=%s", b->why);
		chan_clean(buf + n);
	}
}

int chan_brief_parse(const char *args, struct chan_brief *b)
{
	int used = 0;

	memset(b, 0, sizeof(*b));
	if (sscanf(args, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNd64 " %" SCNd64
		   " %" SCNd64 " %" SCNd64 " %" SCNd64 " %" SCNd64 " %" SCNd64 "%n",
		   &b->samples, &b->overruns, &b->errors, &b->wakeup[0],
		   &b->wakeup[1], &b->wakeup[2], &b->wakeup[3], &b->wakeup[4],
		   &b->response_p99, &b->response_max, &used) != 10 ||
	    (args[used] && strncmp(args + used, " why=", 5) != 0)) {
		memset(b, 0, sizeof(*b));
		return -EINVAL;
	}
	if (args[used])
		chan_clean(strncpy(b->why, args + used + 5, sizeof(b->why) - 1));
	b->measured = 1;
	return 0;
}
