#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry point for programs with their own main (compiler-rt, FuzzerInterface.h).
   SwiftPM links every executable target with `main` renamed to its module's entry point, so
   the fuzzers have a Swift main that hands over to libFuzzer's driver. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
