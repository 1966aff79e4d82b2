# Shared by the tools that fetch Debian packages without installing them
# (debian-kernels.sh, cross-sysroot.sh): sourced, not run.

# apt_add_arch ARCH: apt reads another architecture's package lists only
# once dpkg knows it; adds it (root only) and reads the lists. A mirror
# missing one index file must not stop the rest, so a partial update is
# not an error here.
apt_add_arch() {
	if [ "$1" = "$(dpkg --print-architecture)" ] ||
	   dpkg --print-foreign-architectures | grep -qx "$1"; then
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "$0: apt knows no $1 packages; as root: dpkg --add-architecture $1 && apt-get update" >&2
		exit 3
	fi
	dpkg --add-architecture "$1"
	apt-get update -qq >/dev/null 2>&1 || true
}

# apt_download DIR PACKAGE...: the .deb files into DIR (as root, apt's
# sandbox user could not write there)
apt_download() {
	(cd "$1" && shift && apt-get download -q -o APT::Sandbox::User=root "$@" >/dev/null)
}
