#!/bin/bash
# tools/container-image.sh [LATLAB LATLOAD] — latlab's container image,
# made here from its static build (make static): nothing is pulled.
#
# The image holds /usr/bin/latlab and /usr/bin/latload (static), an
# /etc/passwd of root, /tmp, /root and /var/lib/latlab; its entrypoint is
# latlab, so `podman run IMAGE run /c.ini -o /results` is `latlab run`.
# Tagged localhost/latlab:VERSION (latlab --version's) and labelled with
# the digest of the two programs: a second call with the same build
# reuses the image. Prints the image's name.
#
# podman's own settings (storage, runtime) are the caller's: the tests
# give a store of their own (CONTAINERS_STORAGE_CONF) so as not to touch
# the machine's (docs/containers.md).
#
# Exit: 0 with the image's name on stdout; 2 when podman or the static
# build is missing, or the import fails (said).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
latlab=${1:-$here/build/static/latlab}
latload=${2:-$here/build/static/latload}

command -v podman >/dev/null || { echo "container-image: no podman (apt-get install podman)" >&2; exit 2; }
for p in "$latlab" "$latload"; do
	[ -x "$p" ] || { echo "container-image: no $p (make static)" >&2; exit 2; }
done
# a static program runs in an image with no libraries
if file -L "$latlab" | grep -q 'dynamically linked'; then
	echo "container-image: $latlab is dynamically linked: the image has no libraries (make static)" >&2
	exit 2
fi
version=$("$latlab" --version | sed -n '1s/^latlab \([^ ]*\).*/\1/p')
digest=$(cat "$latlab" "$latload" | sha256sum | cut -c1-16)
name=localhost/latlab:$version
if [ "$(podman image inspect --format '{{index .Labels "org.latlab.digest"}}' "$name" 2>/dev/null)" = "$digest" ]; then
	echo "$name"
	exit 0
fi
root=$(mktemp -d) || exit 2
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/usr/bin "$root"/etc "$root"/root "$root"/var/lib/latlab "$root"/tmp &&
	chmod 1777 "$root/tmp" &&
	cp "$latlab" "$root/usr/bin/latlab" && cp "$latload" "$root/usr/bin/latload" &&
	echo 'root:x:0:0:root:/root:/usr/bin/latlab' >"$root/etc/passwd" &&
	echo 'root:x:0:' >"$root/etc/group" || exit 2
# latlab runs latload by its own path's neighbour or PATH: both are here
tar -C "$root" --owner=0 --group=0 -cf "$root.tar" . || exit 2
trap 'rm -rf "$root" "$root.tar"' EXIT
if ! podman import -q \
	--change 'ENTRYPOINT ["/usr/bin/latlab"]' --change 'WORKDIR /root' \
	--change 'ENV PATH=/usr/bin' \
	--change "LABEL org.latlab.digest=$digest" \
	--change "LABEL org.latlab.version=$version" \
	"$root.tar" "$name" >/dev/null; then
	echo "container-image: podman import failed" >&2
	exit 2
fi
echo "$name"
