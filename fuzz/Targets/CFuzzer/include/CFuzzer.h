#pragma once
#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry for programs that have their own main (SwiftPM gives every executable
// one): runs the fuzzing loop, or the given inputs, with libFuzzer's command line.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));
