# latlab — build, test, run. See README.md.
#   make            build latlab (and latload) into build/
#   make deps       install the Debian packages the build, run and tests use
#   make run        deps + build + run configs/quick.ini
#   make test       deps + build + every test (unit: cmocka, cli: bats)
#   make SANITIZE=1 test    the same with ASan and UBSan, in build/san/
#   make demo-kernels       today's Debian kernels in qemu, each preemption model, compared
#   make demo-arm64         the same for arm64 (qemu's virt machine, TCG)
#   make lava-local         LAVA's lava-run runs configs/lava/latlab.yaml in qemu
#   make fuzz [FUZZ_SECONDS=60]  libFuzzer on the config parser, the tree reader, the channel,
#                   the kernel image reader, cyclictest's histogram file
#   make install PREFIX=/usr/local DESTDIR=
#   make CROSS=aarch64-linux-gnu-   for arm64 (arm-linux-gnueabihf-: armhf),
#                   in build/TRIPLET/, against build/sysroot/TRIPLET
#   make static     latlab and latload linked statically, in $(BUILD)/static/
#   make image      latlab's container image (localhost/latlab:VERSION) from the static build
#   make deps-cross both architectures' libraries, qemu-user for their programs

PREFIX ?= /usr/local
DESTDIR ?=
SYSTEMDDIR ?= /lib/systemd/system
SANITIZE ?=

CC ?= cc
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Wall -Wextra -Wformat=2 \
	  -Wmissing-prototypes -Wshadow -pthread -MMD -MP
HARNESS_DIRS := $(patsubst %/,%,$(wildcard harness/*/))
CPPFLAGS += -Iinclude -Icommon -Iharness $(HARNESS_DIRS:%=-I%) -Iworkloads -Iloadgen \
	    -Itests/fuzz -I$(BUILD)/gen

# Another architecture: Debian's cross compiler, and the libraries
# unpacked into a sysroot of latlab's own (tools/cross-sysroot.sh)
CROSS ?=
ifneq ($(CROSS),)
TRIPLET := $(patsubst %-,%,$(CROSS))
CC := $(CROSS)gcc
AR := $(CROSS)ar
# SYSROOT=DIR: another sysroot laid out the same (latlab's own is not made)
OWN_SYSROOT := build/sysroot/$(TRIPLET)
SYSROOT ?= $(OWN_SYSROOT)
SYSLIB := $(SYSROOT)/usr/lib/$(TRIPLET)
CPPFLAGS += -I$(SYSROOT)/usr/include -I$(SYSROOT)/usr/include/tracefs \
	    -I$(SYSROOT)/usr/include/traceevent
LIB_LIBS := -L$(SYSLIB) -Wl,-rpath-link,$(SYSLIB) \
	    -linih -lnuma -ljansson -ltracefs -ltraceevent -lz
SYSROOT_READY := $(if $(filter $(OWN_SYSROOT),$(SYSROOT)),$(OWN_SYSROOT)/.complete)
else
CPPFLAGS += $(shell pkg-config --cflags libtracefs libtraceevent 2>/dev/null || \
		echo -I/usr/include/tracefs -I/usr/include/traceevent)
LIB_LIBS := $(shell pkg-config --libs inih numa jansson libtracefs libtraceevent zlib 2>/dev/null || \
		echo -linih -lnuma -ljansson -ltracefs -ltraceevent -lz)
# libtracecmd reads spike captures' trace-N.dat back (harness/trace/tracer.c):
# its header here, the library loaded when a capture needs it
CPPFLAGS += $(shell pkg-config --cflags-only-I libtracecmd 2>/dev/null)
SYSROOT_READY :=
endif
LDLIBS += $(LIB_LIBS) -lcsv -lm -pthread
# one self-contained program: the libraries' archives, in the order they
# use each other (tracefs needs traceevent, whose plugins need dlopen)
STATIC_LIBS := $(filter -L% -Wl%,$(LIB_LIBS)) -ltracefs -ltraceevent -ljansson \
	       -linih -lnuma -lz -lcsv -lm -pthread -ldl

# BPF (the watcher, harness/trace/watch_bpf.c): bpf/watch.bpf.c compiled
# by clang against this machine's BTF (CO-RE: it loads on any kernel with
# BTF) and embedded as bpftool's skeleton; a native build only, where the
# tools and /sys/kernel/btf/vmlinux are (else latlab says it was built
# without BPF, and watches through histogram triggers)
ifeq ($(CROSS),)
HAVE_BPF := $(shell pkg-config --exists libbpf 2>/dev/null && command -v clang >/dev/null && \
	      command -v bpftool >/dev/null && test -r /sys/kernel/btf/vmlinux && echo 1)
endif
ifeq ($(HAVE_BPF),1)
CPPFLAGS += -DHAVE_BPF
LDLIBS += -lbpf
STATIC_LIBS := -lbpf -lelf $(STATIC_LIBS)
BPF_ARCH := $(patsubst x86_64,x86,$(patsubst aarch64,arm64,$(shell uname -m)))
endif

CFLAGS += $(EXTRA_CFLAGS)

BUILD_ROOT := build$(if $(CROSS),/$(TRIPLET))
ifeq ($(SANITIZE),1)
BUILD := $(BUILD_ROOT)/san
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	  -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
BUILD := $(BUILD_ROOT)
endif

# the cross builds, their unit tests under qemu-user, the arm64 guests
CROSS_TRIPLETS := aarch64-linux-gnu arm-linux-gnueabihf
CROSS_PACKAGES := gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
	gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user qemu-user-binfmt \
	qemu-system-arm file
DEB_PACKAGES := gcc make pkg-config libinih-dev libcsv-dev libnuma-dev \
	libjansson-dev libtracefs-dev libtraceevent-dev zlib1g-dev libcmocka-dev bats rt-tests gnuplot-nox procps \
	util-linux hostname chromium qemu-system-x86 busybox-static strace poppler-utils \
	lava-dispatcher cpio trace-cmd rtla libtracecmd-dev xz-utils zstd kmod e2fsprogs dpkg-dev debhelper lintian \
	libbpf-dev libelf-dev clang bpftool mmdebstrap grub-pc-bin fdisk qemu-utils podman runc catatonit $(CROSS_PACKAGES)

COMMON_SRC := $(wildcard common/*.c)
WORKLOAD_SRC := $(wildcard workloads/*.c)
HARNESS_SRC := $(wildcard harness/*/*.c)
LOADGEN_SRC := $(filter-out loadgen/main.c,$(wildcard loadgen/*.c))
LIB_SRC := $(COMMON_SRC) $(WORKLOAD_SRC) $(LOADGEN_SRC) $(HARNESS_SRC)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

LATLAB := $(BUILD)/latlab
LATLOAD := $(BUILD)/latload
# the example plugins (include/latlab/plugin.h), built beside latlab
PLUGIN_SRC := $(wildcard examples/plugins/*.c)
PLUGINS := $(PLUGIN_SRC:examples/plugins/%.c=$(BUILD)/plugins/%.so)

# -jN for the builds make test and make run start, unless make was given one
NPROC := $(shell nproc 2>/dev/null || echo 1)
JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

.PHONY: kernels-stable kernels-arm64 kernels-sid all deps deps-cross run test unit unit-bins cli install clean bench deb dist FORCE \
	kernels demo-kernels demo-arm64 lava-local fuzz static cross reference machine overnight image
.SECONDARY:

all: $(LATLAB) $(LATLOAD) $(PLUGINS)

# a plugin sees latlab's public header only, as a user's would
$(BUILD)/plugins/%.so: examples/plugins/%.c include/latlab/plugin.h | $(SYSROOT_READY)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude $(CFLAGS) -fPIC -shared -o $@ $< $(LDFLAGS) -pthread

$(BUILD)/obj/%.o: %.c | $(SYSROOT_READY)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# report_index.c's script, harness/report/table.js, as a C string (its
# leading // comment lines left out of the page)
$(BUILD)/gen/table_js.h: harness/report/table.js
	@mkdir -p $(dir $@)
	sed -e '/^\/\//d' -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< >$@

$(BUILD)/obj/harness/report/report_index.o: $(BUILD)/gen/table_js.h

# the git commit latlab is built from (--version, sysinfo.ini, campaign.ini,
# the report): given by make deb, else asked of git; the header changes
# only when the commit does, so a build rebuilds one file for it
LATLAB_COMMIT ?= $(shell git describe --always --dirty=+ --abbrev=12 --exclude='*' 2>/dev/null)
$(BUILD)/gen/commit.h: FORCE
	@mkdir -p $(dir $@)
	@printf '#define LATLAB_COMMIT "%s"\n' '$(LATLAB_COMMIT)' >$@.new
	@cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@

$(BUILD)/obj/common/version.o: $(BUILD)/gen/commit.h

ifeq ($(HAVE_BPF),1)
$(BUILD)/gen/vmlinux.h:
	@mkdir -p $(dir $@)
	bpftool btf dump file /sys/kernel/btf/vmlinux format c >$@.new && mv -f $@.new $@

$(BUILD)/gen/watch.bpf.o: bpf/watch.bpf.c $(BUILD)/gen/vmlinux.h
	clang -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -I$(BUILD)/gen -c -o $@ $<

$(BUILD)/gen/watch.skel.h: $(BUILD)/gen/watch.bpf.o
	bpftool gen skeleton $< name watch_bpf >$@.new && mv -f $@.new $@

$(BUILD)/obj/harness/trace/watch_bpf.o: $(BUILD)/gen/watch.skel.h

$(BUILD)/gen/flight.bpf.o: bpf/flight.bpf.c bpf/flight.h $(BUILD)/gen/vmlinux.h
	clang -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -I$(BUILD)/gen -Ibpf -c -o $@ $<

$(BUILD)/gen/flight.skel.h: $(BUILD)/gen/flight.bpf.o
	bpftool gen skeleton $< name flight_bpf >$@.new && mv -f $@.new $@

$(BUILD)/obj/harness/trace/flight.o: $(BUILD)/gen/flight.skel.h
endif

FORCE:

$(BUILD)/liblatlab.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(LATLAB): $(BUILD)/obj/harness/main.o $(BUILD)/liblatlab.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(LATLOAD): $(BUILD)/obj/loadgen/main.o $(BUILD)/liblatlab.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(BUILD)/liblatlab.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

unit-bins: $(UNIT_BIN) $(BUILD)/latsynth

static: $(BUILD)/static/latlab $(BUILD)/static/latload

$(BUILD)/static/latlab: $(BUILD)/obj/harness/main.o $(BUILD)/liblatlab.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -static -o $@ $^ $(STATIC_LIBS)

$(BUILD)/static/latload: $(BUILD)/obj/loadgen/main.o $(BUILD)/liblatlab.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -static -o $@ $^ $(STATIC_LIBS)

# latlab's own sysroot of a triplet (deps-cross makes every one)
build/sysroot/%/.complete: tools/cross-sysroot.sh
	@tools/cross-sysroot.sh $* build/sysroot/$*

# the fuzz corpora replayed (with the targets libFuzzer drives in make fuzz)
$(BUILD)/tests/test_fuzz_replay: $(BUILD)/obj/tests/unit/test_fuzz_replay.o \
		$(BUILD)/obj/tests/fuzz/targets.o $(BUILD)/liblatlab.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# Installs only what is missing; needs root (or sudo) only then.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing$$missing"; \
		if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
		$$SUDO apt-get update -qq || \
			echo "make deps: apt-get update failed in part (a mirror's index missing?); going on with what apt knows"; \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
			--no-install-recommends $$missing; \
	fi

# both architectures' libraries for the cross builds (deps has the compilers)
deps-cross: deps $(CROSS_TRIPLETS:%=build/sysroot/%/.complete)
	@tools/binfmt.sh

# what make test checks beyond this machine's build: a static latlab and
# latload for the host, and for each other architecture with its unit
# tests (run under qemu-user by tests/run.sh). Never sanitized: ASan
# links neither statically nor for another architecture.
cross: deps-cross
	@$(MAKE) -s --no-print-directory SANITIZE= static
	@for t in $(CROSS_TRIPLETS); do \
		$(MAKE) -s --no-print-directory SANITIZE= CROSS=$$t- static unit-bins || exit; \
	done

# the demo (tools/demo-run.sh): quick.ini run anew (an earlier tree kept
# beside it), its report, one line of what it found; cells that fail their
# thresholds are findings (exit 0), only a run or report that could not
# measure or draw fails
run: deps
	@$(MAKE) --no-print-directory $(JOBS) all
	@tools/demo-run.sh $(LATLAB) configs/quick.ini

# The other architectures' builds (make cross) run inside tests/run.sh,
# beside the tests of tests/cli/alongside, which need only this machine's
# static latlab (the one that goes into guests)
# The build one compile a CPU (after deps, which installs the compiler):
# latlab and the unit tests from nothing in 16 s on this 2-CPU VM, 29 s of
# CPU; a -j of make's own command line wins
test: deps
	@$(MAKE) --no-print-directory $(JOBS) all unit-bins kernels
	@$(MAKE) -s --no-print-directory $(JOBS) SANITIZE= static
	@LATLAB=$(abspath $(LATLAB)) UNIT_DIR=$(BUILD)/tests \
		CROSS_TRIPLETS="$(CROSS_TRIPLETS)" \
		CROSS_BUILD="$(MAKE) -s --no-print-directory cross" \
		KERNELS=$(abspath kernels) tests/run.sh

# Debian's stock and PREEMPT_RT kernel images (the qemu tests and the
# demos): the host's suite for amd64 and, with a static busybox, for
# arm64; the newest (sid) for amd64 in kernels/sid; with SUITE=NAME that
# suite's too, in kernels/NAME and kernels/NAME/arm64
# The three are fetched side by side where make runs jobs (make test's
# -jN, beside latlab's compile): one after another they took 58 s here,
# most of it unpacking on one CPU. Each has an apt of its own, in its
# own directory.
SUITE ?=
kernels: deps kernels-stable kernels-arm64 kernels-sid
	@if [ -n "$(SUITE)" ]; then \
		tools/debian-kernels.sh kernels/$(SUITE) amd64 $(SUITE) && \
		tools/debian-kernels.sh kernels/$(SUITE)/arm64 arm64 $(SUITE); \
	fi

kernels-stable: deps
	@tools/debian-kernels.sh kernels

kernels-arm64: deps
	@tools/debian-kernels.sh kernels/arm64 arm64

kernels-sid: deps
	@tools/debian-kernels.sh kernels/sid amd64 sid

# Where PREEMPT_RT still matters: Debian stable's rt and stock kernels
# and the newest Debian kernel in its four preemption models, in qemu on
# the instruction clock, under seven loads (configs/models.ini), then the
# comparison and the report
# docs/reference.md's tables: latlab list --markdown below its marker line
# (tests/cli/basics.bats holds the file equal to what latlab prints)
REFERENCE_MARK := <!-- generated by make reference (latlab list --markdown): do not edit below -->
reference: all
	@sed '/^$(REFERENCE_MARK)$$/q' docs/reference.md >docs/reference.md.tmp && \
		$(LATLAB) list --markdown >>docs/reference.md.tmp && mv docs/reference.md.tmp docs/reference.md

demo-kernels: deps all kernels
	@tools/debian-kernels.sh kernels/trixie amd64 trixie
	@$(LATLAB) run configs/models.ini; rc=$$?; \
	$(LATLAB) compare results/models -o results/models/compare && \
	$(LATLAB) report results/models -q && \
	echo "report: $(CURDIR)/results/models/report/index.html" && \
	echo "comparison: $(CURDIR)/results/models/compare/index.html"; exit $$rc

# Debian's arm64 stock and RT kernels in qemu (TCG), latlab built for arm64
demo-arm64: deps all kernels cross
	@$(LATLAB) run configs/rt-vs-stock-arm64.ini; rc=$$?; \
	$(LATLAB) compare results/rt-vs-stock-arm64 -o results/rt-vs-stock-arm64/compare && \
	echo "comparison: $(CURDIR)/results/rt-vs-stock-arm64/compare/index.html"; exit $$rc

# LAVA's own lava-run boots a qemu device and runs configs/lava/latlab.yaml
lava-local: deps all kernels cross
	@tools/lava-local.sh build/lava

unit: all $(UNIT_BIN)
	@LATLAB=$(abspath $(LATLAB)) UNIT_DIR=$(BUILD)/tests tests/run.sh unit

cli: all
	@LATLAB=$(abspath $(LATLAB)) UNIT_DIR=$(BUILD)/tests \
		KERNELS=$(abspath kernels) tests/run.sh cli

# libFuzzer (clang) on the config parser, the tree reader, the guest
# channel's reader (its hello too), the image reader and cyclictest's
# histogram file, FUZZ_SECONDS
# each; new inputs go to build/fuzz/corpus-*, crashers to build/fuzz/ (keep
# them in tests/fuzz/corpus/*: make test replays those under the sanitizer)
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined
fuzz: deps
	@command -v clang >/dev/null || { echo "make fuzz: installing clang"; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang; }
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang \
		EXTRA_CFLAGS="$(FUZZ_FLAGS)" build/fuzz/liblatlab.a build/fuzz/obj/tests/fuzz/targets.o
	@for t in config tree channel image ct_hist; do \
		clang $(CPPFLAGS) -std=c11 -D_GNU_SOURCE -DFUZZ_TARGET=fuzz_$$t \
			-g -O1 -fsanitize=fuzzer,address,undefined \
			-o build/fuzz/fuzz_$$t tests/fuzz/libfuzzer.c \
			build/fuzz/obj/tests/fuzz/targets.o build/fuzz/liblatlab.a $(LDLIBS) && \
		mkdir -p build/fuzz/corpus-$$t && \
		build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=build/fuzz/$$t- build/fuzz/corpus-$$t \
			tests/fuzz/corpus/$$t || exit 1; \
	done

bench: all kernels $(BUILD)/bench/ledger_cost $(BUILD)/bench/tail_coverage
	LATLAB=$(abspath $(LATLAB)) bench/vs-cyclictest.sh
	LATLAB=$(abspath $(LATLAB)) bench/trace_cost.sh
	LATLAB=$(abspath $(LATLAB)) bench/ipc_rtt.sh
	LATLAB=$(abspath $(LATLAB)) bench/vs-cyclicdeadline.sh
	LATLAB=$(abspath $(LATLAB)) bench/vs-oslat.sh
	LATLAB=$(abspath $(LATLAB)) bench/report_scale.sh
	LATLAB=$(abspath $(LATLAB)) bench/resume_scale.sh
	LATLAB=$(abspath $(LATLAB)) KERNELS=$(abspath kernels) bench/time_to_verdict.sh
	$(BUILD)/bench/ledger_cost
	$(BUILD)/bench/tail_coverage

# one run drawn from a law with a known tail (tools/synth-tail.sh)
$(BUILD)/latsynth: $(BUILD)/obj/tools/latsynth.o $(BUILD)/liblatlab.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# how often tailfit's interval holds a known tail's probability
$(BUILD)/bench/tail_coverage: $(BUILD)/obj/bench/tail_coverage.o $(BUILD)/liblatlab.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# what the campaign's bookkeeping writes per cell, the old way and now
$(BUILD)/bench/ledger_cost: $(BUILD)/obj/bench/ledger_cost.o $(BUILD)/liblatlab.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/latlab/configs \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(LATLAB) $(DESTDIR)$(PREFIX)/bin/latlab
	install -m 0755 $(LATLOAD) $(DESTDIR)$(PREFIX)/bin/latload
	install -m 0644 configs/*.ini $(DESTDIR)$(PREFIX)/share/latlab/configs/
	install -d $(DESTDIR)$(PREFIX)/share/latlab/plots
	install -m 0644 plots/*.gp $(DESTDIR)$(PREFIX)/share/latlab/plots/
	install -m 0644 docs/latlab.1 $(DESTDIR)$(PREFIX)/share/man/man1/latlab.1
	install -m 0644 docs/latload.1 $(DESTDIR)$(PREFIX)/share/man/man1/latload.1
	install -d $(DESTDIR)$(PREFIX)/include/latlab $(DESTDIR)$(PREFIX)/lib/latlab/plugins \
		$(DESTDIR)$(PREFIX)/share/latlab/examples/plugins
	install -m 0644 include/latlab/plugin.h $(DESTDIR)$(PREFIX)/include/latlab/plugin.h
	install -m 0644 $(PLUGINS) $(DESTDIR)$(PREFIX)/lib/latlab/plugins/
	install -m 0644 $(PLUGIN_SRC) $(DESTDIR)$(PREFIX)/share/latlab/examples/plugins/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 0644 completions/latlab $(DESTDIR)$(PREFIX)/share/bash-completion/completions/latlab
	install -d $(DESTDIR)$(SYSTEMDDIR)
	sed 's|@PREFIX@|$(PREFIX)|g' systemd/latlab-resume.service \
		>$(DESTDIR)$(SYSTEMDDIR)/latlab-resume.service
	install -d $(DESTDIR)$(PREFIX)/share/doc/latlab/docs
	install -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/latlab/
	install -m 0644 docs/*.md docs/*.png $(DESTDIR)$(PREFIX)/share/doc/latlab/docs/

# The Debian package, built as Debian builds one (dpkg-buildpackage -b,
# debhelper) from a copy of the source in build/deb/src, the commit given
# in; lintian's errors fail it (its warnings: docs/install.md). The .deb
# lands in build/deb/.
VERSION := $(shell sed -n 's/^\#define LATLAB_VERSION "\(.*\)"/\1/p' common/version.h)
deb: deps
	@rm -rf build/deb && mkdir -p build/deb/src
	@tar --exclude=./build --exclude=./results --exclude=./kernels --exclude=./.git \
		-cf - . | tar -xf - -C build/deb/src
	@cd build/deb/src && dpkg-checkbuilddeps && \
		LATLAB_COMMIT='$(LATLAB_COMMIT)' dpkg-buildpackage -b -us -uc >../build.log 2>&1 || \
		{ tail -30 ../build.log; exit 1; }
	@lintian --fail-on error --tag-display-limit 0 build/deb/latlab_$(VERSION)_*.deb \
		>build/deb/lintian.txt 2>&1; rc=$$?; grep -v 'root privileges' build/deb/lintian.txt; \
		[ $$rc -eq 0 ] || { echo "make deb: lintian found errors"; exit 1; }
	@ls build/deb/latlab_$(VERSION)_*.deb

# A whole Debian 12 machine on a disk image (tools/debian-machine.sh:
# systemd, GRUB, the stock and PREEMPT_RT kernels, kexec-tools, what this
# tree's .deb depends on), cached by its inputs' digest; and the
# overnight campaign in it, booted under qemu, the .deb installed by dpkg,
# rebooting between the kernels by GRUB and by kexec, a GRUB entry that
# does not boot and a power cut on the way (bench/overnight.sh;
# docs/campaigns.md, "The overnight campaign in a whole Debian machine").
# .ci/run runs make overnight after make test.
machine: deps
	@$(MAKE) --no-print-directory deb
	@tools/debian-machine.sh build/deb/latlab_$(VERSION)_amd64.deb
overnight: deps
	@$(MAKE) --no-print-directory $(JOBS) all
	@$(MAKE) --no-print-directory deb
	@bench/overnight.sh
	@$(MAKE) -s --no-print-directory SANITIZE= static
	@bench/smt.sh

# latlab's container image, made here from the static build (nothing is
# pulled; tools/container-image.sh, docs/containers.md): podman's own store
image: deps
	@$(MAKE) -s --no-print-directory SANITIZE= static
	@tools/container-image.sh $(BUILD)/static/latlab $(BUILD)/static/latload

# Static tarballs for boards: latlab-VERSION-ARCH-static.tar.xz for amd64,
# arm64 and armhf in build/dist (the static builds of make static and
# make cross; tools/dist.sh)
dist: deps deps-cross
	@$(MAKE) -s --no-print-directory SANITIZE= static
	@for t in $(CROSS_TRIPLETS); do \
		$(MAKE) -s --no-print-directory SANITIZE= CROSS=$$t- static || exit; \
	done
	@tools/dist.sh $(VERSION) build/dist

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
