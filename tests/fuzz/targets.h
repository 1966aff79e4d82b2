/*
 * The fuzz targets: each takes any bytes and must return without a crash,
 * a leak or undefined behaviour. libFuzzer drives them in `make fuzz`
 * (tests/fuzz/libfuzzer.c); `make test` replays their corpora under the
 * sanitizer build (tests/unit/test_fuzz_replay.c).
 */
#ifndef LATLAB_FUZZ_TARGETS_H
#define LATLAB_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* The bytes as a config file: config_load, then the matrix and the echo. */
int fuzz_config(const uint8_t *data, size_t size);

/*
 * The bytes as one file of a real results tree (the first byte picks
 * cells.csv, a cell's summary.csv, hist.csv, load.csv, series.csv,
 * spikes.csv, interference.csv, timeline.csv, cell.ini, sysinfo.ini or
 * samples.bin, or the campaign's state, of tests/fixtures/compare/stock;
 * the rest is its content): tree_read, cell_files_read, the sysinfo and
 * samples readers, and the resume reader (prior_read and its lookups).
 */
int fuzz_tree(const uint8_t *data, size_t size);

/*
 * The bytes as what a guest sends on its channel: vm_read into a tree of
 * its own, the guest given cells c1 and c2. Nothing it writes may land
 * outside that tree's HOST/RELEASE directories, and no held blob may pass
 * its verb's bound.
 */
int fuzz_channel(const uint8_t *data, size_t size);

/*
 * The bytes as a kernel image (image =): the bzImage setup header's
 * payload, an ELF's PVH note (its headers at any offset), the release it
 * says — what latlab reads of an image before it unpacks or boots it.
 */
int fuzz_image(const uint8_t *data, size_t size);

/*
 * The bytes as cyclictest's histogram file (the first byte: 1 to 4
 * threads): cyclictest_read_hist, what it takes bounded.
 */
int fuzz_ct_hist(const uint8_t *data, size_t size);

/* Removes the scratch files the targets made in /tmp (each names them by pid). */
void fuzz_cleanup(void);

#endif
