/* An OpenCL runtime that misorders, as issue 34 measured Intel's CPU
 * runtime doing through SYCL: a barrier put on an out-of-order queue does
 * not hold back the commands enqueued after it (HOSTILE_OUT_OF_ORDER_BARRIER
 * drops it; on an in-order queue the barrier is the real one). Everything
 * else is the real ICD loader's, which this library links. It stands in for
 * the loader twice: named by DLPACK_USM_OPENCL_LOADER for the tool's own
 * calls, and preloaded (LD_PRELOAD) for a plugin's, so that the tool's
 * control and the library under test meet the same runtime. The tool must
 * then name the runtime (DLP-RUNTIME-QUEUE-ORDER), block the library's
 * results on out-of-order queues and judge it on an in-order one
 * (tests/e2e/plugin_check_test.cpp). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stddef.h>

typedef cl_int (*BarrierFn)(cl_command_queue, cl_uint, const cl_event*, cl_event*);

static BarrierFn real_barrier(void) {
  static BarrierFn real = NULL;
  if (real == NULL) {
    void* loader = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (loader != NULL) real = (BarrierFn)dlsym(loader, "clEnqueueBarrierWithWaitList");
  }
  return real;
}

cl_int clEnqueueBarrierWithWaitList(cl_command_queue queue, cl_uint count, const cl_event* events,
                                    cl_event* event) {
  cl_command_queue_properties properties = 0;
  clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, NULL);
#ifdef HOSTILE_OUT_OF_ORDER_BARRIER
  if ((properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0 && event == NULL) {
    return CL_SUCCESS; /* the bug: nothing waits */
  }
#endif
  BarrierFn real = real_barrier();
  return real != NULL ? real(queue, count, events, event) : CL_INVALID_OPERATION;
}
