/*
 * A growing array's room: the one realloc-doubling rule the readers of
 * names and events share, so none gets its overflow check wrong alone.
 */
#ifndef LATLAB_ARRAY_H
#define LATLAB_ARRAY_H

#include <limits.h>
#include <stdlib.h>

/*
 * p (NULL or from malloc) holds *cap elements of `size` bytes: room for
 * `need` (at least 1) of them, doubling from `first`. The array, moved or not, with
 * *cap updated; NULL where memory or int runs out (p untouched, still
 * the caller's to free).
 */
static inline void *array_room(void *p, int *cap, int need, int first, size_t size)
{
	int n = *cap > 0 ? *cap : first;
	void *q;

	if (need <= *cap)
		return p;
	while (n < need) {
		if (n > INT_MAX / 2)
			return NULL;
		n *= 2;
	}
	q = realloc(p, (size_t)n * size);
	if (q)
		*cap = n;
	return q;
}

#endif
