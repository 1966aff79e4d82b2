/*
 * FNV-1a, 64 bits, over bytes: a content key that is the same on every
 * run and machine (a kernel image's cache key, a config's hash). Not a
 * defence against anyone making collisions.
 */
#ifndef LATLAB_HASH_H
#define LATLAB_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a's 64-bit offset basis: where a hash of nothing starts */
#define HASH_FNV1A64_BASIS 0xcbf29ce484222325ULL

/* h carried on over n bytes at p: hash_fnv1a64(HASH_FNV1A64_BASIS, p, n) is FNV-1a of them. */
static inline uint64_t hash_fnv1a64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;	/* FNV's 64-bit prime */
	}
	return h;
}

#endif
