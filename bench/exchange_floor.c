/* The least a process holds for what `dlpack-usm exchange` does: a program
   that does nothing else. Through the OpenCL ICD loader, on the first device
   of the first platform with device USM (exchange's default), it allocates
   SIZE bytes of device USM in a context of that device, writes a pattern in
   1 MiB windows (the tool's staging), reads it back and checks it, and frees
   it. memory_bench runs it beside the tool, once with every ICD the loader
   lists and once with the device's ICD alone (OCL_ICD_VENDORS), so that the
   tool's peak is read against what the runtimes hold whoever calls them.

   Usage: exchange_floor SIZE [ICD_FILE]
   ICD_FILE: where to write the path of the library behind the platform
   (what an .icd file names). Exit 0 when the round trip checked out, 1 on
   an OpenCL error, 2 on a usage error, 3 where no device has USM. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef cl_int (*GetPlatforms)(cl_uint, cl_platform_id*, cl_uint*);
typedef cl_int (*GetDevices)(cl_platform_id, cl_device_type, cl_uint, cl_device_id*, cl_uint*);
typedef cl_int (*DeviceInfo)(cl_device_id, cl_device_info, size_t, void*, size_t*);
typedef cl_context (*CreateContext)(const cl_context_properties*, cl_uint, const cl_device_id*,
                                    void (*)(const char*, const void*, size_t, void*), void*,
                                    cl_int*);
typedef cl_command_queue (*CreateQueue)(cl_context, cl_device_id, const cl_queue_properties*,
                                        cl_int*);
typedef void* (*PlatformFunction)(cl_platform_id, const char*);
typedef void* (*DeviceAlloc)(cl_context, cl_device_id, const cl_mem_properties_intel*, size_t,
                             cl_uint, cl_int*);
typedef cl_int (*Memcpy)(cl_command_queue, cl_bool, void*, const void*, size_t, cl_uint,
                         const cl_event*, cl_event*);
typedef cl_int (*BlockingFree)(cl_context, void*);

struct Loader {
  GetPlatforms platforms;
  GetDevices devices;
  DeviceInfo device_info;
  CreateContext context;
  CreateQueue queue;
  PlatformFunction function;
};

struct Usm {
  cl_platform_id platform;
  cl_device_id device;
  DeviceAlloc alloc;
  Memcpy copy;
  BlockingFree release;
};

static int load(struct Loader* loader) {
  void* library = dlopen("libOpenCL.so.1", RTLD_NOW);
  if (library == NULL) return 0;
  loader->platforms = (GetPlatforms)dlsym(library, "clGetPlatformIDs");
  loader->devices = (GetDevices)dlsym(library, "clGetDeviceIDs");
  loader->device_info = (DeviceInfo)dlsym(library, "clGetDeviceInfo");
  loader->context = (CreateContext)dlsym(library, "clCreateContext");
  loader->queue = (CreateQueue)dlsym(library, "clCreateCommandQueueWithProperties");
  loader->function = (PlatformFunction)dlsym(library, "clGetExtensionFunctionAddressForPlatform");
  return loader->platforms && loader->devices && loader->device_info && loader->context &&
         loader->queue && loader->function;
}

/* The first device, of the first platform in the loader's order, that can
   allocate device USM. */
static int find_usm_device(const struct Loader* loader, struct Usm* usm) {
  cl_platform_id platforms[16];
  cl_uint count = 0;
  if (loader->platforms(16, platforms, &count) != CL_SUCCESS) return 0;
  for (cl_uint p = 0; p < count && p < 16; ++p) {
    cl_device_id devices[16];
    cl_uint device_count = 0;
    if (loader->devices(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &device_count)) continue;
    usm->alloc = (DeviceAlloc)loader->function(platforms[p], "clDeviceMemAllocINTEL");
    usm->copy = (Memcpy)loader->function(platforms[p], "clEnqueueMemcpyINTEL");
    usm->release = (BlockingFree)loader->function(platforms[p], "clMemBlockingFreeINTEL");
    if (!usm->alloc || !usm->copy || !usm->release) continue;
    for (cl_uint d = 0; d < device_count && d < 16; ++d) {
      cl_bitfield capabilities = 0;
      if (loader->device_info(devices[d], CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
                              sizeof capabilities, &capabilities, NULL) == CL_SUCCESS &&
          capabilities != 0) {
        usm->platform = platforms[p];
        usm->device = devices[d];
        return 1;
      }
    }
  }
  return 0;
}

/* Writes `pattern` over `bytes` of device memory a window at a time, reads
   it back and checks it. */
static int round_trip(cl_command_queue queue, const struct Usm* usm, char* memory, size_t bytes) {
  enum { kWindow = 1 << 20 };
  static char out[kWindow];
  static char back[kWindow];
  memset(out, 0x5A, sizeof out);
  for (size_t at = 0; at < bytes; at += kWindow) {
    size_t size = bytes - at < kWindow ? bytes - at : kWindow;
    if (usm->copy(queue, CL_TRUE, memory + at, out, size, 0, NULL, NULL) != CL_SUCCESS) return 0;
  }
  for (size_t at = 0; at < bytes; at += kWindow) {
    size_t size = bytes - at < kWindow ? bytes - at : kWindow;
    if (usm->copy(queue, CL_TRUE, back, memory + at, size, 0, NULL, NULL) != CL_SUCCESS) return 0;
    if (memcmp(back, out, size) != 0) return 0;
  }
  return 1;
}

static void write_icd_path(const char* file, const struct Usm* usm) {
  Dl_info info;
  FILE* out = fopen(file, "w");
  if (out == NULL) return;
  if (dladdr((void*)usm->alloc, &info) != 0 && info.dli_fname != NULL) {
    fprintf(out, "%s\n", info.dli_fname);
  }
  fclose(out);
}

int main(int argc, char** argv) {
  struct Loader loader;
  struct Usm usm;
  cl_int status = CL_SUCCESS;
  if (argc < 2 || argc > 3 || strtoull(argv[1], NULL, 0) == 0) {
    fprintf(stderr, "usage: exchange_floor SIZE [ICD_FILE]\n");
    return 2;
  }
  size_t bytes = (size_t)strtoull(argv[1], NULL, 0);
  if (!load(&loader) || !find_usm_device(&loader, &usm)) return 3;
  if (argc == 3) write_icd_path(argv[2], &usm);
  cl_context context = loader.context(NULL, 1, &usm.device, NULL, NULL, &status);
  if (status != CL_SUCCESS) return 1;
  cl_command_queue queue = loader.queue(context, usm.device, NULL, &status);
  if (status != CL_SUCCESS) return 1;
  char* memory = (char*)usm.alloc(context, usm.device, NULL, bytes, 0, &status);
  if (memory == NULL) return 1;
  int checked = round_trip(queue, &usm, memory, bytes);
  usm.release(context, memory);
  return checked ? 0 : 1;
}
