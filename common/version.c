#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#include "commit.h"
#include "version.h"

const char *version_commit(void)
{
	return LATLAB_COMMIT;
}

const char *version_text(void)
{
	static char text[96];

	if (!text[0])
		snprintf(text, sizeof(text), LATLAB_COMMIT[0] ? "%s (git %s)" : "%s", LATLAB_VERSION,
			 LATLAB_COMMIT);
	return text;
}

void version_features(char *buf, size_t len)
{
	/* no program interpreter: linked statically, so nothing is loaded at run time */
	int dynamic = getauxval(AT_BASE) != 0;
	void *h = dynamic ? dlopen("libtracecmd.so.1", RTLD_LAZY | RTLD_LOCAL) : NULL;

#ifdef HAVE_BPF
	const char *bpf = "bpf (watch and spike captures through BPF: its programs built in)";
#else
	const char *bpf = "no bpf (built without clang, bpftool, libbpf or BTF: watch through histogram triggers, spike captures through tracefs)";
#endif

	snprintf(buf, len, "numa, tracecmd (%s), plugins%s, %s, %s",
		 !dynamic ? "not in a static build: spike captures read tracefs" :
		 h ? "libtracecmd.so.1 found: loaded at a spike capture" :
		     "libtracecmd.so.1 missing: spike captures read tracefs",
		 dynamic ? "" : " (not in a static build)", bpf, dynamic ? "dynamic" : "static");
	if (h)
		dlclose(h);
}
