#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interference.h"

#define MSR_SMI_COUNT 0x34

static int add(struct intf_snap *s, int cpu, const char *kind, const char *source,
	       int64_t count, const char *note)
{
	struct intf_row *r = realloc(s->row, (size_t)(s->n + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	s->row = r;
	r = &r[s->n++];
	memset(r, 0, sizeof(*r));
	r->cpu = cpu;
	snprintf(r->kind, sizeof(r->kind), "%s", kind);
	snprintf(r->source, sizeof(r->source), "%s", source);
	r->count = count;
	snprintf(r->note, sizeof(r->note), "%s", note ? note : "");
	return 0;
}

/* "  CPU0  CPU1 ..." -> the CPU number of each column; returns the count. */
static int header_cpus(char *line, int *col_cpu, int max)
{
	int n = 0;

	for (char *tok = strtok(line, " \t\n"); tok && n < max; tok = strtok(NULL, " \t\n"))
		if (strncmp(tok, "CPU", 3) == 0)
			col_cpu[n++] = atoi(tok + 3);
	return n;
}

/*
 * One /proc/interrupts or /proc/softirqs file: "NAME: c0 c1 ... [desc]".
 * An IRQ's source is its number and the rest of its line's last word (the
 * device); a named row's (LOC, RES, ...) its name and description.
 */
static int read_table(struct intf_snap *s, const char *path, const char *kind,
		      const cpu_set_t *cpus)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int col_cpu[CPU_SETSIZE], ncol, rc = 0;

	if (!fp)
		return -errno;
	if (getline(&line, &cap, fp) < 0) {
		fclose(fp);
		free(line);
		return -EIO;
	}
	ncol = header_cpus(line, col_cpu, CPU_SETSIZE);
	while (rc == 0 && getline(&line, &cap, fp) >= 0) {
		char *p = line, *name, *end;
		int64_t v[CPU_SETSIZE];
		int k = 0;

		while (isspace((unsigned char)*p))
			p++;
		name = p;
		p = strchr(p, ':');
		if (!p)
			continue;
		*p++ = '\0';
		for (; k < ncol; k++) {
			long long x = strtoll(p, &end, 10);

			if (end == p)
				break;	/* ERR:, MIS: have one column */
			v[k] = x;
			p = end;
		}
		/* the description: what follows the counts, its last word for an IRQ */
		while (isspace((unsigned char)*p))
			p++;
		p[strcspn(p, "\n")] = '\0';
		char source[INTF_NAME];
		if (isdigit((unsigned char)name[0])) {
			const char *dev = strrchr(p, ' ');

			snprintf(source, sizeof(source), "%s %s", name, dev ? dev + 1 : p);
		} else {
			snprintf(source, sizeof(source), "%s%s%s", name, *p ? " " : "", p);
		}
		for (int c = 0; c < k && rc == 0; c++)
			if (CPU_ISSET(col_cpu[c], cpus))
				rc = add(s, col_cpu[c], kind, source, v[c], NULL);
	}
	free(line);
	fclose(fp);
	return rc;
}

/* MSR_SMI_COUNT of a CPU: Intel only, and only with the msr module loaded. */
static int read_smi(struct intf_snap *s, int cpu)
{
	char path[32], why[96];
	uint64_t v;
	int fd;

#if !defined(__x86_64__) && !defined(__i386__)
	return add(s, cpu, "smi", "SMI", -1, "unavailable: SMIs are x86's");
#endif
	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, sizeof(why), "unavailable: %.24s: %.40s", path,
			 errno == ENOENT ? "no msr module" : strerror(errno));
		return add(s, cpu, "smi", "SMI", -1, why);
	}
	if (pread(fd, &v, sizeof(v), MSR_SMI_COUNT) != sizeof(v)) {
		snprintf(why, sizeof(why), "unavailable: MSR 0x34: %.40s (not an Intel CPU?)",
			 strerror(errno));
		close(fd);
		return add(s, cpu, "smi", "SMI", -1, why);
	}
	close(fd);
	return add(s, cpu, "smi", "SMI", (int64_t)(uint32_t)v, NULL);
}

int intf_steal_ns(const char *path, int64_t *steal)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	long hz = sysconf(_SC_CLK_TCK);

	for (int i = 0; i < CPU_SETSIZE; i++)
		steal[i] = -1;
	if (!fp)
		return -errno;
	/* "cpuN user nice system idle iowait irq softirq steal ...", USER_HZ ticks */
	while (hz > 0 && getline(&line, &cap, fp) >= 0) {
		unsigned long long v[8];
		int cpu;

		if (strncmp(line, "cpu", 3) != 0 || !isdigit((unsigned char)line[3]))
			continue;
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 9 &&
		    cpu >= 0 && cpu < CPU_SETSIZE)
			steal[cpu] = (int64_t)(v[7] * (1000000000ULL / (unsigned long long)hz));
	}
	free(line);
	fclose(fp);
	return 0;
}

int intf_steal_counted(const int64_t *steal)
{
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (steal[cpu] > 0)
			return 1;
	return 0;
}

/* The steal time of each CPU in `cpus` (intf_steal_ns) as a row, in ms. */
int intf_read_stat(struct intf_snap *s, const cpu_set_t *cpus, const char *path)
{
	int64_t steal[CPU_SETSIZE];
	int rc = intf_steal_ns(path, steal);

	for (int cpu = 0; rc == 0 && cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, cpus) && steal[cpu] >= 0)
			rc = add(s, cpu, "steal", "steal ms", steal[cpu] / 1000000, NULL);
	return rc;
}

int intf_read_files(struct intf_snap *s, const cpu_set_t *cpus,
		    const char *interrupts, const char *softirqs)
{
	int rc = read_table(s, interrupts, "irq", cpus);
	int rc2 = read_table(s, softirqs, "softirq", cpus);

	return rc ? rc : rc2;
}

int intf_read(struct intf_snap *s, const cpu_set_t *cpus)
{
	int rc = intf_read_files(s, cpus, "/proc/interrupts", "/proc/softirqs");
	int rc2 = intf_read_stat(s, cpus, "/proc/stat");

	rc = rc ? rc : rc2;	/* the first error, as intf_read_files says its own */
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, cpus) && read_smi(s, cpu) == -ENOMEM)
			return -ENOMEM;
	return rc;
}

static const struct intf_row *find(const struct intf_snap *s, const struct intf_row *r)
{
	for (int i = 0; i < s->n; i++)
		if (s->row[i].cpu == r->cpu && strcmp(s->row[i].kind, r->kind) == 0 &&
		    strcmp(s->row[i].source, r->source) == 0)
			return &s->row[i];
	return NULL;
}

int intf_delta(const struct intf_snap *before, const struct intf_snap *after,
	       struct intf_row **out, int *nout)
{
	struct intf_snap d = { NULL, 0 };

	for (int i = 0; i < after->n; i++) {
		const struct intf_row *a = &after->row[i], *b = find(before, a);
		int64_t delta;

		if (strcmp(a->kind, "smi") == 0) {
			delta = a->count < 0 || !b || b->count < 0 ? -1 :
				(int64_t)(uint32_t)(a->count - b->count);
			if (add(&d, a->cpu, a->kind, a->source, delta, a->note))
				goto oom;
			continue;
		}
		delta = a->count - (b ? b->count : 0);
		/* a source that did nothing is left out; steal said 0 is kept: nothing was stolen */
		int keep = delta > 0 || (strcmp(a->kind, "steal") == 0 && b && delta == 0);

		if (keep && add(&d, a->cpu, a->kind, a->source, delta, NULL))
			goto oom;
	}
	*out = d.row;
	*nout = d.n;
	return 0;
oom:
	free(d.row);
	return -ENOMEM;
}

void intf_free(struct intf_snap *s)
{
	free(s->row);
	s->row = NULL;
	s->n = 0;
}
