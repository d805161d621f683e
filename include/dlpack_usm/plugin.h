/* dlpack-usm plugin interface, ABI version 4 (the tool still loads ABI 1 to 3).
 *
 * A producer or consumer library under test exports one symbol,
 *
 *     const DlpackUsmPlugin* dlpack_usm_plugin(const DlpackUsmHost* host);
 *
 * and `dlpack-usm check --producer LIB` / `--consumer LIB` loads it in an
 * isolated child process per case. The tool hands the library a host table
 * (its version, the root devices, the default context of each platform,
 * helpers for the data pattern) and the library answers with its table:
 * `produce`, `consume`, or both. man dlpack-usm-plugin(7) has a complete
 * example.
 *
 * Every call into the library must return to its caller: produce, consume,
 * the deleter of every tensor and the functions of an exchange API. A
 * signal, an exit of the process, or no return within check's --timeout
 * fails the case, as a C library that kills or blocks its caller does.
 *
 * Tensors cross this interface as `void*`: a DLManagedTensorVersioned* when
 * the DLPack version asked for is 1.0 or newer, a legacy DLManagedTensor*
 * below 1.0. The header does not include dlpack.h, so a library builds it
 * against its own copy of the DLPack ABI.
 *
 * Compatibility: fields are only ever appended to the structs below. Each
 * struct starts with `struct_size`; a reader uses a field only when
 * struct_size covers it. A change that cannot be made by appending bumps
 * DLPACK_USM_PLUGIN_ABI_VERSION, and the tool refuses a plugin built for
 * another ABI version with a message naming both.
 *
 * ABI 2 appended the SYCL handles: on `check --runtime sycl` the host table
 * hands out dpctl's opaque references (a DPCTLSyclDeviceRef is a
 * sycl::device*, a DPCTLSyclContextRef a sycl::context*) of the devices and
 * of each platform's default context, and `dpctl_symbol`, which returns the
 * functions of the dpctl C interface the tool itself loaded, so that a
 * library allocates in the very SYCL runtime and context the tool looks its
 * pointers up in. The OpenCL fields are NULL then; on --runtime opencl the
 * SYCL fields are. A plugin declaring ABI 1 keeps loading.
 *
 * ABI 3 appended what the consumer saw to DlpackUsmConsumeResult: the view
 * it imported (ndim, shape, strides, dtype, device), so that a consumer
 * that reads the right elements through a wrong view (an extent-1 axis
 * dropped, another dtype of the same width) is caught, not only one whose
 * checksum is wrong. The tool hands every consumer the whole ABI 3 struct;
 * it reads the view only from a plugin declaring ABI 3 that set
 * view_reported, and judges ABI 1 and 2 plugins by the checksum alone.
 *
 * ABI 4 appended the consumer's queue to DlpackUsmProduceRequest, the
 * contract of the `stream` argument of Python's __dlpack__ for C: a
 * producer whose writes are still in flight when produce returns must
 * order them before the consumer's work. The tool stands for a consumer
 * that reads on a queue of its own, out of order where the device allows
 * it; on --runtime opencl it is a cl_command_queue, on --runtime sycl a
 * DPCTLSyclQueueRef, both of the platform's default context. When
 * consumer_queue is set, the elements must be ready for every command the
 * tool submits to consumer_queue after produce returns: finish the work that
 * writes them, or make the queue wait for it (an event or a barrier on that
 * queue). When consumer_queue is NULL, the elements must be ready when
 * produce returns. The tool hands every producer the whole ABI 4 request;
 * a plugin of ABI 1 to 3 sees no queue and so must have its elements
 * ready when produce returns. */
#ifndef DLPACK_USM_PLUGIN_H
#define DLPACK_USM_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLPACK_USM_PLUGIN_ABI_VERSION 4u
/* The oldest plugin ABI the tool still loads. */
#define DLPACK_USM_PLUGIN_ABI_OLDEST 1u
/* The name of the one symbol a plugin exports. */
#define DLPACK_USM_PLUGIN_ENTRY "dlpack_usm_plugin"

/* Return codes of produce and consume. produce and consume must return
 * DLPACK_USM_OK, DLPACK_USM_UNSUPPORTED or DLPACK_USM_FAILED;
 * DLPACK_USM_FAILED says the library failed. A decline is no failure: a
 * library may decline any request (UNSUPPORTED, or for consume accepted 0
 * with a reason), and the case records it with the library's reason. */
#define DLPACK_USM_OK 0
#define DLPACK_USM_UNSUPPORTED                                                                  \
  1                            /* the library cannot do this request: the case is not_supported \
                                */
#define DLPACK_USM_FAILED (-1) /* an error: the case fails with the message given */

/* USM kinds, in the order of cl_intel_unified_shared_memory. */
#define DLPACK_USM_KIND_HOST 1u
#define DLPACK_USM_KIND_DEVICE 2u
#define DLPACK_USM_KIND_SHARED 3u

/* Layouts a producer is asked for. Every layout is over one allocation of
 * DlpackUsmProduceRequest.allocation_bytes, and the request carries the
 * strides and byte_offset the tool expects. A library may answer with another
 * layout that holds the same logical elements; the tool reads the data
 * through the strides and byte_offset the tensor declares. */
#define DLPACK_USM_LAYOUT_C 0u        /* row-major, compact */
#define DLPACK_USM_LAYOUT_F 1u        /* column-major, compact */
#define DLPACK_USM_LAYOUT_STRIDED 2u  /* row-major, every other element of the last axis */
#define DLPACK_USM_LAYOUT_OFFSET 3u   /* row-major, starting 3 elements in (byte_offset) */
#define DLPACK_USM_LAYOUT_NEGATIVE 4u /* row-major with the first axis flipped */

typedef struct DlpackUsmDevice {
  uint32_t struct_size;
  int32_t device_id;  /* kDLOneAPI device_id: the index among all root devices */
  void* cl_platform;  /* cl_platform_id */
  void* cl_device;    /* cl_device_id of the root device */
  void* cl_context;   /* the platform's default context: allocate here (NULL when no
                         device of the platform has cl_intel_unified_shared_memory) */
  const char* name;   /* the tool's selector name, e.g. "opencl:cpu:0" */
  uint32_t usm_kinds; /* bit (1 << DLPACK_USM_KIND_*) set for each kind it can allocate */
  int32_t sub_device_count;
  void* const* cl_sub_devices; /* cl_device_id of each sub-device the tool created */
  /* ABI 2, --runtime sycl only (NULL otherwise): */
  void* sycl_device;             /* DPCTLSyclDeviceRef (sycl::device*) of the root device */
  void* sycl_context;            /* DPCTLSyclContextRef: the platform's default context */
  void* const* sycl_sub_devices; /* DPCTLSyclDeviceRef of each sub-device the tool created */
} DlpackUsmDevice;

typedef struct DlpackUsmHost {
  uint32_t struct_size;
  uint32_t abi_version; /* DLPACK_USM_PLUGIN_ABI_VERSION of the tool */
  const char* tool_version;
  int32_t root_device_count;
  const DlpackUsmDevice* root_devices; /* root_device_count entries, index = device_id */
  /* The bytes element `index` (logical, row-major order) holds when a tensor
   * of `element_bytes` per element carries the tool's pattern. */
  void (*pattern_element)(uint64_t index, uint64_t element_bytes, void* out);
  /* Copies `bytes` between host memory and USM (either direction, any kind)
   * through a queue of the default context of `device_id`, and waits.
   * Returns DLPACK_USM_OK or DLPACK_USM_FAILED. */
  int (*usm_memcpy)(int32_t device_id, void* dst, const void* src, size_t bytes);
  /* ABI 2: */
  const char* runtime; /* "sycl" or "opencl": which handles above are set */
  /* The address of the function `name` of dpctl's C interface
   * (libDPCTLSyclInterface.so) the tool loaded, e.g. "DPCTLmalloc_device";
   * NULL for an unknown name or on --runtime opencl. */
  void* (*dpctl_symbol)(const char* name);
} DlpackUsmHost;

typedef struct DlpackUsmProduceRequest {
  uint32_t struct_size;
  int32_t device_id;  /* root device (kDLOneAPI device_id) */
  int32_t sub_device; /* -1 for the root device, else the index of its sub-device */
  void* cl_device;    /* the device to allocate for: the root or that sub-device */
  void* cl_context;   /* the platform's default context */
  uint32_t usm_kind;  /* DLPACK_USM_KIND_* */
  uint32_t layout;    /* DLPACK_USM_LAYOUT_* */
  uint8_t dtype_code; /* DLDataType of the tensor */
  uint8_t dtype_bits;
  uint16_t dtype_lanes;
  int32_t ndim;
  const int64_t* shape;   /* ndim extents */
  const int64_t* strides; /* ndim strides in elements, as the tool expects them */
  uint64_t byte_offset;   /* as the tool expects it */
  uint64_t allocation_bytes;
  /* The DLPack version the consumer (the tool) speaks: below 1.0 answer a
   * legacy DLManagedTensor*, else a DLManagedTensorVersioned* with this
   * major version. */
  uint32_t dlpack_major;
  uint32_t dlpack_minor;
  uint64_t flags; /* DLPack flags the tensor should carry (READ_ONLY = 1) */
  /* ABI 2, --runtime sycl only (NULL otherwise): */
  void* sycl_device;  /* DPCTLSyclDeviceRef of the device to allocate for (root or sub-device) */
  void* sycl_context; /* DPCTLSyclContextRef: the platform's default context */
  /* ABI 4: the queue the tool reads the elements on as soon as produce
   * returns (cl_command_queue on --runtime opencl, DPCTLSyclQueueRef on
   * --runtime sycl), or NULL: then the elements must be ready on return.
   * The tool owns it; the library may enqueue on it, never release it. */
  void* consumer_queue;
} DlpackUsmProduceRequest;

/* Fills *out_tensor with a tensor whose element i (logical order) holds
 * host->pattern_element(i, ...). The tool reads it, calls its deleter once and
 * checks the allocation was freed. On UNSUPPORTED or FAILED, writes a reason
 * (NUL-terminated, at most message_size bytes) to `message`. */
typedef int (*DlpackUsmProduceFn)(const DlpackUsmHost* host, const DlpackUsmProduceRequest* request,
                                  void** out_tensor, char* message, size_t message_size);

/* How many axes a consumer can report in DlpackUsmConsumeResult (ABI 3). A
 * view of more axes reports its ndim and its first 64 extents and strides;
 * the tool then compares ndim and those. */
#define DLPACK_USM_VIEW_MAX_DIMS 64

typedef struct DlpackUsmConsumeResult {
  uint32_t struct_size; /* set by the tool: sizeof the struct it hands over */
  int32_t accepted;     /* 1: imported; 0: rejected (reason says why) */
  /* When accepted: dlpack_usm_checksum over the elements of the consumer's
   * own view, in logical row-major order. */
  uint64_t checksum;
  char reason[256];
  /* ABI 3, when accepted: the view the consumer imported, as its own array
   * object describes it (not copied from the DLTensor it was given). Fill
   * these only when struct_size covers them, and set view_reported to 1. */
  int32_t view_reported;
  int32_t ndim;
  int64_t shape[DLPACK_USM_VIEW_MAX_DIMS];
  /* In elements, as DLTensor's; the compact row-major ones where the view
   * is compact. Compared on axes of extent > 1 of tensors with elements. */
  int64_t strides[DLPACK_USM_VIEW_MAX_DIMS];
  uint8_t dtype_code; /* DLDataType */
  uint8_t dtype_bits;
  uint16_t dtype_lanes;
  int32_t device_type; /* DLDevice */
  int32_t device_id;
} DlpackUsmConsumeResult;

/* Imports `tensor` (versioned when `versioned` is 1) as a DLPack consumer
 * would, and takes ownership: the deleter must run exactly once, whether the
 * tensor is accepted or rejected. Returns DLPACK_USM_OK when *result is
 * filled in (accepted or not), or DLPACK_USM_UNSUPPORTED; accepted 0 with a
 * reason is a decline as UNSUPPORTED is. Given a tensor that breaks a rule
 * of DLPack, consume should refuse it (accepted 0, with a reason) and
 * return. */
typedef int (*DlpackUsmConsumeFn)(const DlpackUsmHost* host, void* tensor, int32_t versioned,
                                  DlpackUsmConsumeResult* result);

typedef struct DlpackUsmPlugin {
  uint32_t struct_size;
  uint32_t abi_version; /* DLPACK_USM_PLUGIN_ABI_VERSION the plugin was built for */
  const char* name;
  const char* version;
  DlpackUsmProduceFn produce; /* may be NULL */
  DlpackUsmConsumeFn consume; /* may be NULL */
} DlpackUsmPlugin;

typedef const DlpackUsmPlugin* (*DlpackUsmPluginEntry)(const DlpackUsmHost* host);

/* The entry point the library defines, declared here inside the extern "C"
 * block: a C++ plugin that includes this header exports it under its C name,
 * not a mangled one, and visible even when built with -fvisibility=hidden. */
#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
const DlpackUsmPlugin*
dlpack_usm_plugin(const DlpackUsmHost* host);

/* The runtime whose handles the library takes, for `check --runtime auto`.
 * A library that allocates through the SYCL handles of ABI 2 (and so cannot
 * work with OpenCL's) writes, once, at file scope:
 *
 *     DLPACK_USM_PLUGIN_RUNTIME("sycl");
 *
 * The tool reads this exported string in a child process before it chooses
 * a runtime: auto then chooses SYCL where dpctl's C interface loads, and
 * refuses to run the library, saying why, where it does not; --runtime
 * opencl refuses it too. A library that declares nothing, or "opencl",
 * gets OpenCL's handles under auto, as every library of ABI 1 does. */
#define DLPACK_USM_PLUGIN_RUNTIME_SYMBOL "dlpack_usm_plugin_runtime"
#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
extern const char dlpack_usm_plugin_runtime[];
#define DLPACK_USM_PLUGIN_RUNTIME(runtime_name) \
  const char dlpack_usm_plugin_runtime[] = runtime_name

/* The checksum a consumer reports: FNV-1a (64-bit) over the bytes of every
 * element, element after element in logical row-major order. Start with
 * DLPACK_USM_CHECKSUM_SEED and feed each element's bytes in turn. */
#define DLPACK_USM_CHECKSUM_SEED 0xcbf29ce484222325ull

static inline uint64_t dlpack_usm_checksum(uint64_t state, const void* bytes, size_t size) {
  const unsigned char* byte = (const unsigned char*)bytes;
  for (size_t i = 0; i < size; ++i) {
    state ^= byte[i];
    state *= 0x100000001b3ull;
  }
  return state;
}

#ifdef __cplusplus
}
#endif

#endif /* DLPACK_USM_PLUGIN_H */
