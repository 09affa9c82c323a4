// Declarations only: LLVMFuzzerRunDriver comes from libFuzzer (-sanitize=fuzzer).
#include "CFuzzer.h"
