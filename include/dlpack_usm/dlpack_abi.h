/* The DLPack 1.3 C ABI as dlpack-usm declares it for the libraries it tests:
 * the structs, enumerators, flags and the exchange API a plugin
 * (dlpack_usm/plugin.h) exchanges, written from the tool's own model of the
 * ABI (the layouts its build checks against released headers), so that a
 * plugin builds where the system has no dlpack.h or an older one (Debian 12
 * ships DLPack 0.6: no DLManagedTensorVersioned, no kDLOneAPI).
 *
 *     #include <dlpack_usm/dlpack_abi.h>   (pkg-config --cflags dlpack-usm)
 *
 * It guards itself with dlpack.h's own include guard, DLPACK_DLPACK_H_: a
 * translation unit that included a real dlpack.h first keeps that one, and
 * one that includes this first never sees a second definition. Only what
 * the 1.3 release defines is here; the codes main's header added after it
 * (kDLTPU, kDLBcomplex, ...) are numbers the tool reads, not names a
 * library should build against yet. */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#include <stdint.h>

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 3

#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif
#define DLPACK_DLL

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/* Where a tensor's memory lives. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14, /* SYCL USM; device_id: the root device's index in get_devices() */
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/* What one element is. */
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
  kDLFloat8_e3m4 = 7U,
  kDLFloat8_e4m3 = 8U,
  kDLFloat8_e4m3b11fnuz = 9U,
  kDLFloat8_e4m3fn = 10U,
  kDLFloat8_e4m3fnuz = 11U,
  kDLFloat8_e5m2 = 12U,
  kDLFloat8_e5m2fnuz = 13U,
  kDLFloat8_e8m0fnu = 14U,
  kDLFloat6_e2m3fn = 15U,
  kDLFloat6_e3m2fn = 16U,
  kDLFloat4_e2m1fn = 17U,
} DLDataTypeCode;

typedef struct {
  uint8_t code; /* a DLDataTypeCode */
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/* The tensor itself: data + byte_offset is its first element; strides are
 * in elements (NULL: compact row-major, allowed before 1.2 only). */
typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/* DLPack 0.x: the tensor and who frees it. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

/* DLPack 1.x: the version first, so that any consumer can read it and call
 * the deleter whatever major version follows. */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

/* The C exchange API (1.2 and later). The functions that take or give
 * Python objects take void* for PyObject*, as a C caller sees them. */
typedef struct DLPackExchangeAPIHeader {
  DLPackVersion version;
  struct DLPackExchangeAPIHeader* prev_api;
} DLPackExchangeAPIHeader;

typedef int (*DLPackManagedTensorAllocator)(DLTensor* prototype, DLManagedTensorVersioned** out,
                                            void* error_ctx,
                                            void (*SetError)(void* error_ctx, const char* kind,
                                                             const char* message));
typedef int (*DLPackManagedTensorFromPyObjectNoSync)(void* py_object,
                                                     DLManagedTensorVersioned** out);
typedef int (*DLPackManagedTensorToPyObjectNoSync)(DLManagedTensorVersioned* tensor,
                                                   void** out_py_object);
typedef int (*DLPackDLTensorFromPyObjectNoSync)(void* py_object, DLTensor* out);
typedef int (*DLPackCurrentWorkStream)(DLDeviceType device_type, int32_t device_id,
                                       void** out_current_stream);

typedef struct DLPackExchangeAPI {
  DLPackExchangeAPIHeader header;
  DLPackManagedTensorAllocator managed_tensor_allocator;
  DLPackManagedTensorFromPyObjectNoSync managed_tensor_from_py_object_no_sync;
  DLPackManagedTensorToPyObjectNoSync managed_tensor_to_py_object_no_sync;
  DLPackDLTensorFromPyObjectNoSync dltensor_from_py_object_no_sync;
  DLPackCurrentWorkStream current_work_stream;
} DLPackExchangeAPI;

#ifdef __cplusplus
}
#endif

#endif /* DLPACK_DLPACK_H_ */
