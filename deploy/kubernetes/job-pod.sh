#!/bin/sh
# deploy/kubernetes/job-pod.sh JOB.yaml [IMAGE [RESULTS]] — the Job's pod
# as a Pod, for `podman kube play` (podman 4.3 plays Pods, Deployments,
# ConfigMaps and claims, not Jobs): every other document as it is; the
# Job's template as a Pod named as the Job, its annotations and spec
# unchanged but for the image (IMAGE) and the results' hostPath
# (RESULTS), when given. To stdout.
#
# Exit: 0; 2 for a bad use or a file with no Job.
set -u
[ $# -ge 1 ] && [ -f "$1" ] || { echo "usage: job-pod.sh JOB.yaml [IMAGE [RESULTS]]" >&2; exit 2; }
grep -q '^kind: Job$' "$1" || { echo "job-pod.sh: $1 has no Job" >&2; exit 2; }
awk -v image="${2:-}" -v results="${3:-}" '
function flush(   i, name, in_t, meta) {
	if (!job) {
		for (i = 1; i <= n; i++) print buf[i]
	} else {
		for (i = 1; i <= n; i++)
			if (buf[i] ~ /^  name: /) { name = substr(buf[i], 9); break }
		print "apiVersion: v1"
		print "kind: Pod"
		for (i = 1; i <= n; i++) {
			if (buf[i] ~ /^  template:/) { in_t = 1; continue }
			if (!in_t || buf[i] !~ /^    /) continue
			line = substr(buf[i], 5)
			if (image != "" && line ~ /^ *image: /) sub(/image: .*/, "image: " image, line)
			if (results != "" && hostpath && line ~ /^ *path: /) sub(/path: .*/, "path: " results, line)
			hostpath = line ~ /hostPath:/ ? 1 : (line ~ /^ *path: / ? 0 : hostpath)
			print line
			if (line == "metadata:" && !meta) { print "  name: " name; meta = 1 }
		}
	}
	n = 0; job = 0
}
/^---$/ { flush(); print; next }
{ buf[++n] = $0; if ($0 == "kind: Job") job = 1 }
END { flush() }
' "$1"
