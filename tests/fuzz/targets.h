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
 * cells.csv, summary.csv, hist.csv or load.csv of
 * tests/fixtures/compare/stock; the rest is its content): tree_read and
 * cell_files_read.
 */
int fuzz_tree(const uint8_t *data, size_t size);

#endif
