#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpulist.h"
#include "files.h"

static int parse_cpu(const char **p, long *cpu)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*cpu = strtol(*p, &end, 10);
	if (errno || *cpu >= CPU_SETSIZE)
		return -ERANGE;
	*p = end;
	return 0;
}

int cpulist_parse(const char *s, cpu_set_t *set)
{
	const char *p = s;

	CPU_ZERO(set);
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0')
		return 0;
	for (;;) {
		long lo, hi;
		int rc;

		while (isspace((unsigned char)*p))
			p++;
		rc = parse_cpu(&p, &lo);
		if (rc)
			return rc;
		hi = lo;
		if (*p == '-') {
			p++;
			rc = parse_cpu(&p, &hi);
			if (rc)
				return rc;
			if (hi < lo)
				return -EINVAL;
		}
		for (long c = lo; c <= hi; c++)
			CPU_SET((size_t)c, set);
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return 0;
		if (*p != ',' && *p != '+')
			return -EINVAL;
		p++;
	}
}

void cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE; c++) {
		int hi = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (hi + 1 < CPU_SETSIZE && CPU_ISSET(hi + 1, set))
			hi++;
		int n = hi == c
			? snprintf(buf + used, len - used, "%s%d",
				   used ? "," : "", c)
			: snprintf(buf + used, len - used, "%s%d-%d",
				   used ? "," : "", c, hi);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
		c = hi;
	}
}

int cpulist_nth(const cpu_set_t *set, int n)
{
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set) && n-- == 0)
			return c;
	return -1;
}

int cpulist_read_file(const char *path, cpu_set_t *set)
{
	char line[4096];
	int rc = file_first_line(path, line, sizeof(line));

	return rc ? rc : cpulist_parse(line, set);
}

int cpulist_node_number(const char *s)
{
	const char *d = s + 5;
	long n = 0;

	if (strncmp(s, "node:", 5) != 0 || !*d || strspn(d, "0123456789") != strlen(d) ||
	    (d[0] == '0' && d[1]) || strlen(d) > 4)
		return -1;
	n = strtol(d, NULL, 10);
	return n <= NODE_MAX ? (int)n : -1;
}

int cpulist_node(const char *root, int node, cpu_set_t *set)
{
	char path[PATH_MAX];
	int rc;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist",
		 root ? root : "/sys", node);
	rc = cpulist_read_file(path, set);
	if (rc != -ENOENT || node != 0)
		return rc;
	/* a kernel without NUMA: one node, 0, of every online CPU */
	snprintf(path, sizeof(path), "%s/devices/system/node", root ? root : "/sys");
	if (access(path, F_OK) == 0)
		return rc;
	if (!root) {
		cpulist_online(set);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", root);
	return cpulist_read_file(path, set);
}

int cpulist_nodes(const char *root, cpu_set_t *nodes)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/devices/system/node/online", root ? root : "/sys");
	return cpulist_read_file(path, nodes);
}

void cpulist_online(cpu_set_t *set)
{
	if (cpulist_read_file("/sys/devices/system/cpu/online", set) == 0 &&
	    CPU_COUNT(set) > 0)
		return;
	CPU_ZERO(set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	for (long c = 0; c < n && c < CPU_SETSIZE; c++)
		CPU_SET((size_t)c, set);
}

static cpu_set_t at_start;
static int known;	/* 1: at_start read; -1: the kernel would not say */

static void read_at_start(void)
{
	known = sched_getaffinity(0, sizeof(at_start), &at_start) == 0 &&
		CPU_COUNT(&at_start) > 0 ? 1 : -1;
}

void cpulist_usable(cpu_set_t *set)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	cpu_set_t online;

	pthread_once(&once, read_at_start);	/* the first caller's, whichever thread */
	cpulist_online(&online);
	if (known > 0)
		CPU_AND(set, &online, &at_start);
	if (known < 0 || CPU_COUNT(set) == 0)
		*set = online;
}
