/* A CUDA driver library as a broken machine may have one: every entry point
 * the tool binds, and one fault chosen at build time. HOSTILE_CRASH: cuInit
 * dies on SIGSEGV; HOSTILE_HANG: cuInit never returns; HOSTILE_MANY:
 * cuDeviceGetCount reports INT_MAX devices; HOSTILE_NAME: one device whose
 * name carries ESC, BEL and a newline that forges a line of the tool's own,
 * GitHub's workflow commands (legacy "##[" anywhere, "::" at a line's
 * start), C1 controls (U+009B CSI, U+0085) and a bidi override (U+202E).
 * The tool must probe the driver in a child, report what happened and print
 * the driver's text escaped (tests/e2e/runtime_probe_test.cpp). */
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

typedef int CUresult;

CUresult cuInit(unsigned flags) {
  (void)flags;
#ifdef HOSTILE_CRASH
  *(volatile int*)(uintptr_t)8 = 1; /* a write to unmapped memory: SIGSEGV */
#endif
#ifdef HOSTILE_HANG
  for (;;) pause();
#endif
  return 0;
}

CUresult cuDeviceGetCount(int* count) {
#if defined(HOSTILE_MANY)
  *count = INT_MAX;
#elif defined(HOSTILE_NAME)
  *count = 1;
#else
  *count = 0;
#endif
  return 0;
}

CUresult cuDriverGetVersion(int* version) {
  *version = 13000;
  return 0;
}

CUresult cuGetErrorName(CUresult error, const char** name) {
  (void)error;
  *name = "CUDA_ERROR_UNKNOWN";
  return 0;
}

CUresult cuDeviceGet(int* device, int ordinal) {
  *device = ordinal;
  return 0;
}

CUresult cuDeviceGetName(char* name, int length, int device) {
  (void)device;
#ifdef HOSTILE_NAME
  const char* forged =
      "GPU\x1b[2J\a\nFAKE gate: PASSED ##[add-mask]FAILED \xc2\x9b"
      "31m \xe2\x80\xae"
      "exe "
      "\xc2\x85\n::error file=a,line=1::forged";
  if (length > (int)strlen(forged)) {
    strcpy(name, forged);
    return 0;
  }
#endif
  if (length > 0) name[0] = '\0';
  return 0;
}

CUresult cuDeviceGetAttribute(int* value, int attribute, int device) {
  (void)attribute;
  (void)device;
  *value = 0;
  return 0;
}

CUresult cuDeviceGetPCIBusId(char* bus_id, int length, int device) {
  (void)device;
  if (length > 0) bus_id[0] = '\0';
  return 0;
}

CUresult cuDeviceTotalMem_v2(size_t* bytes, int device) {
  (void)device;
  *bytes = 0;
  return 0;
}

CUresult cuPointerGetAttributes(unsigned count, unsigned* attributes, void** data, uint64_t ptr) {
  (void)count;
  (void)attributes;
  (void)data;
  (void)ptr;
  return 1;
}

CUresult cuMemGetAddressRange_v2(uint64_t* base, size_t* size, uint64_t ptr) {
  (void)base;
  (void)size;
  (void)ptr;
  return 1;
}

CUresult cuDevicePrimaryCtxRetain(void** context, int device) {
  (void)context;
  (void)device;
  return 1;
}

CUresult cuDevicePrimaryCtxRelease_v2(int device) {
  (void)device;
  return 1;
}

CUresult cuCtxPushCurrent_v2(void* context) {
  (void)context;
  return 1;
}

CUresult cuCtxPopCurrent_v2(void** context) {
  (void)context;
  return 1;
}

CUresult cuStreamCreate(void** stream, unsigned flags) {
  (void)stream;
  (void)flags;
  return 1;
}

CUresult cuStreamDestroy_v2(void* stream) {
  (void)stream;
  return 1;
}

CUresult cuMemcpyDtoHAsync_v2(void* destination, uint64_t source, size_t bytes, void* stream) {
  (void)destination;
  (void)source;
  (void)bytes;
  (void)stream;
  return 1;
}

CUresult cuStreamSynchronize(void* stream) {
  (void)stream;
  return 1;
}

CUresult cuCtxSynchronize(void) {
  return 1;
}

CUresult cuStreamGetCtx(void* stream, void** context) {
  (void)stream;
  (void)context;
  return 1;
}

CUresult cuCtxGetDevice(int* device) {
  (void)device;
  return 1;
}
