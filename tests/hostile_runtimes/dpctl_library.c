/* A library named as dpctl's C interface (DLPACK_USM_DPCTL) whose
 * constructor, run as it is loaded, crashes (HOSTILE_CRASH) or hangs
 * (HOSTILE_HANG), as a broken SYCL runtime behind a real dpctl can. The tool
 * must load it in a probe process first and report what happened
 * (tests/e2e/runtime_probe_test.cpp). */
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

__attribute__((constructor)) static void start_broken_runtime(void) {
#ifdef HOSTILE_CRASH
  *(volatile int*)(uintptr_t)8 = 1; /* a write to unmapped memory: SIGSEGV */
#endif
#ifdef HOSTILE_HANG
  for (;;) pause();
#endif
}

int hostile_dpctl_marker(void) {
  return 1;
}
