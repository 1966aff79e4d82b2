#!/bin/sh
# Run latlab's LAVA job with LAVA's own dispatcher, locally, without a
# server: configs/lava/latlab.yaml (the test definition), job-qemu.yaml
# (the job) and device-qemu.yaml (the device) are checked against
# lava-common's schemas, then lava-run boots Debian's stock kernel in qemu
# with a test ramdisk (busybox, a static latlab and latload) and runs the
# definition in it; the lava-test-case results are listed at the end.
#   tools/lava-local.sh WORKDIR [KERNEL]     (KERNEL: kernels/vmlinuz-stock)
# LAVA_TESTDEF names another test definition for the schema check only.
# Needs lava-dispatcher (make deps), build/static (make static), and the
# repository committed: LAVA clones the definition from it.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:?usage: tools/lava-local.sh WORKDIR [KERNEL]}
kernel=${2:-$root/kernels/vmlinuz-stock}
py=/usr/bin/python3		# Debian's, where lava-common is installed
mkdir -p "$work"
work=$(cd "$work" && pwd)

for f in "$root/build/static/latlab" "$root/build/static/latload" "$kernel"; do
	[ -s "$f" ] || { echo "lava-local: no $f (make static; make kernels)" >&2; exit 3; }
done
command -v lava-run >/dev/null ||
	{ echo "lava-local: no lava-run: install lava-dispatcher (make deps)" >&2; exit 3; }

# the test ramdisk: busybox's shell at a prompt on the serial console
rd=$work/rootfs
rm -rf "$rd"
mkdir -p "$rd/bin" "$rd/usr/bin" "$rd/var/lib" "$rd/etc"
cp /bin/busybox "$rd/bin/busybox"
cp "$root/build/static/latlab" "$root/build/static/latload" "$rd/usr/bin/"
cat > "$rd/init" <<'EOI'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /tmp /run /root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
hostname latlab-lava
export PATH=/usr/bin:/bin HOME=/root PS1='latlab-lava# '
echo 'export PS1="latlab-lava# "' > /root/.profile
exec setsid cttyhack sh -l
EOI
chmod 755 "$rd/init"
(cd "$rd" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/ramdisk.cpio.gz"

sed -e "s|@KERNEL@|$kernel|" -e "s|@RAMDISK@|$work/ramdisk.cpio.gz|" \
    -e "s|@REPOSITORY@|file://$root|" "$root/configs/lava/job-qemu.yaml" > "$work/job.yaml"

# LAVA's own schemas: the test definition, the job, the device
"$py" - "${LAVA_TESTDEF:-$root/configs/lava/latlab.yaml}" "$work/job.yaml" \
	"$root/configs/lava/device-qemu.yaml" <<'EOP'
import sys, yaml
from lava_common.schemas import validate as validate_job
from lava_common.schemas.test.testdef import validate as validate_testdef
from lava_common.schemas.device import validate as validate_device
testdef, job, device = (yaml.safe_load(open(p)) for p in sys.argv[1:4])
try:
    validate_testdef(testdef)
    validate_job(job, strict=True)
    validate_device(device)
except Exception as e:
    sys.exit("lava-local: not valid for LAVA: %s" % e)
print("lava-local: %s, job and device valid against lava-common's schemas" % sys.argv[1])
EOP

# lava-run [--validate]: this job on this device, no server
out=$work/lava-run
rm -rf "$out"
lava() {
	timeout 1500 lava-run "$@" --job-id $$ --output-dir "$out" \
		--device "$root/configs/lava/device-qemu.yaml" "$work/job.yaml"
}
lava --validate > "$work/validate.log" 2>&1 ||
	{ tail -20 "$work/validate.log" >&2; echo "lava-local: lava-run --validate failed" >&2; exit 1; }
rc=0
lava > "$work/job.log" 2>&1 || rc=$?
# every result LAVA recorded, as "definition case result [measurement units]"
"$py" - "$work/job.log" <<'EOP'
import sys, yaml
for line in open(sys.argv[1]):
    try:
        rec = yaml.safe_load(line)
    except yaml.YAMLError:
        continue
    if not isinstance(rec, dict) or rec.get("lvl") != "results":
        continue
    r = rec["msg"]
    if not isinstance(r, dict):
        continue
    extra = " %s %s" % (r["measurement"], r.get("units", "")) if "measurement" in r else ""
    print("result: %s %s %s%s" % (r.get("definition"), r.get("case"), r.get("result"), extra))
EOP
echo "lava-local: lava-run exited $rc (log: $work/job.log)"
exit "$rc"
