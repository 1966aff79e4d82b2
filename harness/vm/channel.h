/*
 * The guest channel's protocol: one table of verbs that both ends use.
 * A latlab inside a qemu guest writes it (guest.c, over isa-debugcon);
 * the latlab that booted the guest reads it (vm.c). The stream is lines
 * "LATLAB <verb> <args>"; a verb marked blob is followed by exactly SIZE
 * raw bytes (its last argument). docs/formats.md describes each verb.
 * Anything that is not such a line (firmware chatter) is ignored.
 */
#ifndef LATLAB_CHANNEL_H
#define LATLAB_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#define CHAN_MAGIC "LATLAB "

enum chan_verb {
	CHAN_HELLO,	/* HOST RELEASE: the guest latlab is up */
	CHAN_SYSINFO,	/* SIZE + bytes: the guest's sysinfo.ini */
	CHAN_LOG,	/* TEXT: a line of the guest's log */
	CHAN_START,	/* CELL: a cell begins */
	CHAN_FILE,	/* NAME SIZE + bytes: a file of the finished cell */
	CHAN_BRIEF,	/* 10 numbers: its end-of-run table line (chan_brief) */
	CHAN_CELL,	/* CELL STATUS REASON...: the cell is done */
	CHAN_DONE,	/* EXIT-STATUS: nothing more will come */
	CHAN_NVERBS,
};

struct chan_verb_def {
	const char *name;
	int blob;		/* SIZE raw bytes follow the line */
	uint64_t max;		/* the largest SIZE the host takes of it */
};

extern const struct chan_verb_def chan_verbs[CHAN_NVERBS];

/* The largest SIZE a blob line may say (bytes); each verb has its own max. */
#define CHAN_BLOB_MAX (16LL << 30)

/*
 * Split a line (no newline) in place: the verb it names, with *args at
 * its arguments ("" when none), and *size set for a blob verb. -1 for a
 * line that is not the channel's, a verb nobody knows, or a blob verb
 * without a size in 0..CHAN_BLOB_MAX (a SIZE over the verb's own max
 * parses: its bytes are skipped, so the stream stays in step).
 */
int chan_parse(char *line, char **args, uint64_t *size);

/* Text from a guest made safe for a terminal, a log and XML: every control
 * character (and DEL) becomes '?'. In place; returns s. */
char *chan_clean(char *s);

/* What the end-of-run table shows of a cell: all threads merged. */
struct chan_brief {
	int measured;
	uint64_t samples, overruns, errors;
	int64_t wakeup[5];	/* min p50 p99 p99.99 max, ns */
	int64_t response_p99, response_max;
	char why[160];		/* the worst spike capture's culprit, or "" */
};

/* The brief verb's arguments for b. */
void chan_brief_format(const struct chan_brief *b, char *buf, size_t len);

/* Parse them back: 0, or -EINVAL (b->measured then 0). */
int chan_brief_parse(const char *args, struct chan_brief *b);

#endif
