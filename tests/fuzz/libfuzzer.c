/* libFuzzer's entry point: FUZZ_TARGET (fuzz_config or fuzz_tree) at compile time. */
#include <stddef.h>
#include <stdint.h>

#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return FUZZ_TARGET(data, size);
}
