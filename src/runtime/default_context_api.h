/* The process-wide default contexts, for libraries loaded into the process
 * (producer plugins, bridges): the OpenCL counterpart of SYCL's
 * ext_oneapi_get_default_context(), reachable from C.
 *
 * A library gets the table from its host: the plugin loader calls
 * dlpack_usm_host_api() and hands the pointer to the library, so the library
 * needs no symbol of the executable (which exports none by default). */
#ifndef DLPACK_USM_DEFAULT_CONTEXT_API_H
#define DLPACK_USM_DEFAULT_CONTEXT_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The default context (a cl_context) of the platform of the root device
 * whose kDLOneAPI device_id is `device_id`, created on first use and shared
 * by everything in the process. NULL when there is no such device or the
 * context cannot be made. Borrowed: it lives until the process exits. */
void* dlpack_usm_default_context(int32_t device_id);

/* How many root devices (kDLOneAPI device ids 0 .. count-1) the process sees. */
int32_t dlpack_usm_root_device_count(void);

#define DLPACK_USM_HOST_API_VERSION 1u

typedef struct DlpackUsmHostApi {
  uint32_t struct_size; /* sizeof(DlpackUsmHostApi) of the host: fields may only be added */
  uint32_t version;     /* DLPACK_USM_HOST_API_VERSION */
  void* (*default_context)(int32_t device_id);
  int32_t (*root_device_count)(void);
} DlpackUsmHostApi;

const DlpackUsmHostApi* dlpack_usm_host_api(void);

#ifdef __cplusplus
}
#endif

#endif /* DLPACK_USM_DEFAULT_CONTEXT_API_H */
