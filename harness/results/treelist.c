#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "options.h"
#include "treelist.h"

int tree_list_split(const char *arg, const char *what, char **out, int max, char *err,
		    size_t len)
{
	struct stat st;
	char word[4096];
	int n = 0, rc;

	if (stat(arg, &st) == 0 || !strchr(arg, ',')) {
		if (!arg[0])
			return fail_with(err, len, -EINVAL, "%s is empty: it names no tree", what);
		if (max < 1)
			return -E2BIG;
		out[0] = strdup(arg);
		return out[0] ? 1 : -ENOMEM;
	}
	rc = opt_list_check(arg, what, err, len);
	if (rc)
		return rc;
	for (const char *p = arg; opt_list_next(&p, word, sizeof(word), 0);) {
		if (n >= max || !(out[n] = strdup(word))) {
			rc = n >= max ? -E2BIG : -ENOMEM;
			while (n > 0)
				free(out[--n]);
			return rc;
		}
		n++;
	}
	return n;
}

int tree_list_distinct(char *const *path, const int *group, int n, int self_ok, char *err,
		       size_t len)
{
	struct stat *st = calloc((size_t)n + 1, sizeof(*st));
	int *size = calloc((size_t)n + 1, sizeof(*size)), rc = 0;

	if (!st || !size) {
		free(st);
		free(size);
		return -ENOMEM;
	}
	/* a path that leads nowhere is the reader's to say (tree_read), not a twin */
	for (int i = 0; i < n; i++)
		if (stat(path[i], &st[i]) != 0)
			st[i].st_ino = 0;
	for (int i = 0; i < n; i++)	/* each group's number of trees */
		for (int j = 0; j < n; j++)
			size[i] += group[j] == group[i];
	for (int i = 0; i < n && rc == 0; i++)
		for (int j = i + 1; j < n && rc == 0; j++) {
			if (!st[i].st_ino || st[i].st_dev != st[j].st_dev ||
			    st[i].st_ino != st[j].st_ino)
				continue;
			if (group[i] == group[j])
				rc = fail_with(err, len, -EINVAL,
					       "'%s' and '%s' are one tree, named twice in one list: "
					       "a campaign counts once", path[i], path[j]);
			else if (!self_ok || size[i] > 1 || size[j] > 1)
				rc = fail_with(err, len, -EINVAL,
					       "'%s' and '%s' are one tree, named twice: its runs "
					       "would count twice", path[i], path[j]);
		}
	free(st);
	free(size);
	return rc;
}
