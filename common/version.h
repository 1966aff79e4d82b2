/*
 * latlab's version: the release, the git commit it was built from (when
 * built in a git tree: make writes it into build/gen/commit.h), and what
 * the build can do.
 */
#ifndef LATLAB_VERSION_H
#define LATLAB_VERSION_H

#include <stddef.h>

#ifndef LATLAB_VERSION
#define LATLAB_VERSION "0.1.0"
#endif

/* "0.1.0 (git 7af038e1b2c3)", or "0.1.0" outside a git tree. */
const char *version_text(void);

/* The git commit, or "" when not built from a git tree. */
const char *version_commit(void);

/*
 * What this build can do, in words: "numa, tracecmd (libtracecmd.so.1
 * found: loaded at a spike capture), plugins, dynamic" — tracecmd and
 * plugins looked at now, as they are loaded at run time.
 */
void version_features(char *buf, size_t len);

#endif
