/* dlpack-usm bridge: the tool's core as a shared library (libdlpack_usm.so)
 * with a small C ABI, for language bindings such as the Python package
 * `dlpack_usm` (ctypes; no compiler needed on the caller's side).
 *
 * A caller that holds a DLPack tensor (the pointer a PyCapsule carries)
 * hands it over with the capsule's name, which says which struct it is:
 * "dltensor" for a legacy DLManagedTensor*, "dltensor_versioned" for a
 * DLManagedTensorVersioned*. The bridge reads it with the same defensive
 * facts reader as the command line, evaluates the rule catalog and answers
 * with one JSON document. It never calls the tensor's deleter and keeps no
 * pointer into it: the caller still owns the tensor.
 *
 * Nothing crosses this ABI as a C++ exception. Every call returns an exit
 * code of the command line's classes (0 ok, 2 usage: bad argument or bad
 * request, 3 environment: a file that cannot be written, 4 internal) and,
 * where `result_json` is not NULL, sets *result_json to a NUL-terminated JSON
 * text that the caller frees with dlpack_usm_bridge_free:
 *   on success  {"capsule": {...}, "reader_notes": [...], "findings": [...]}
 *               where "capsule" is the capsule-file form of the tensor
 *               (conformance/schema/capsule.schema.json);
 *   on failure  {"error": "what went wrong", "hint": "what to do"}.
 * A tensor whose struct, shape or strides lie in memory this process cannot
 * read is read page-guarded, never dereferenced: it is exit code 1 (a
 * finding about the producer) with {"error", "hint", "unreadable": FIELD},
 * FIELD naming the pointer ("tensor", "dl_tensor.shape", "dl_tensor.strides").
 * *result_json is NULL only when memory for it could not be had.
 *
 * Compatibility: functions are only ever added. A change to an existing
 * function, or an addition, bumps DLPACK_USM_BRIDGE_ABI_VERSION; the
 * library's symbols carry the version node of the ABI that added them
 * (DLPACK_USM_BRIDGE_1 to DLPACK_USM_BRIDGE_14; version 10 added no function). */
#ifndef DLPACK_USM_BRIDGE_H
#define DLPACK_USM_BRIDGE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLPACK_USM_BRIDGE_ABI_VERSION 14u

/* The library is built with hidden visibility; these are its exports. */
#if defined(__GNUC__)
#define DLPACK_USM_BRIDGE_API __attribute__((visibility("default")))
#else
#define DLPACK_USM_BRIDGE_API
#endif

/* DLPACK_USM_BRIDGE_ABI_VERSION of the library loaded. */
DLPACK_USM_BRIDGE_API uint32_t dlpack_usm_bridge_abi_version(void);

/* The tool's version ("0.1.0"); a static string, not to be freed. */
DLPACK_USM_BRIDGE_API const char* dlpack_usm_bridge_tool_version(void);

/* Reads and judges one tensor. `request_json` may be NULL or a JSON object
 * with optional members:
 *   "origin":  a string naming the tensor in messages ("numpy 2.5.5 float32 C");
 *   "runtime": the "runtime" section of a capsule file: what the runtime that
 *              owns the pointer says about it (USM kind, owning root device,
 *              default context, allocation bounds). The bridge queries no
 *              runtime itself: only the producer's own runtime knows its
 *              contexts.
 * Since ABI version 10 the answer also holds "dump" and "dump_text": the
 * tensor as `dlpack-usm capsule dump --json` and `capsule dump` show it. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_inspect(const void* managed_tensor,
                                                    const char* capsule_name,
                                                    const char* request_json, char** result_json);

/* As dlpack_usm_bridge_inspect, and writes the capsule file `path`
 * (atomically: a temporary file, then a rename) that
 * `dlpack-usm capsule check` reads. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_capture(const void* managed_tensor,
                                                    const char* capsule_name,
                                                    const char* request_json, const char* path,
                                                    char** result_json);

/* ABI version 2: the tool's own exchange on the SYCL runtime (dpctl's C
 * interface, found as `dlpack-usm --runtime sycl` finds it), for a caller
 * that has a SYCL library in the same process. Both use SYCL's default
 * platform contexts, so the tensors pass between the tool and that library.
 *
 * Allocates `bytes` of USM of `usm_kind` ("host", "device", "shared") for
 * the root device `device_id` (kDLOneAPI id), copies `host_data` into it,
 * and exports it as a 1-D tensor of `dtype` ("float32", ...), DLPack 1.3.
 * On success *managed_tensor is the DLManagedTensorVersioned* (the caller
 * owns it: hand it to a consumer or call its deleter, which frees the
 * allocation) and *result_json is {"device_id", "usm_kind", "data",
 * "findings"}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_sycl_export(const char* usm_kind, int32_t device_id,
                                                        const char* dtype, const void* host_data,
                                                        uint64_t bytes, void** managed_tensor,
                                                        char** result_json);

/* Imports `managed_tensor` (named by `capsule_name` as above) through the
 * tool's importer on the SYCL runtime and reads every element back. The
 * bridge takes ownership: the tensor's deleter runs exactly once, whether the
 * import succeeds or is refused. On success *result_json is {"device_id",
 * "usm_kind", "owner", "bytes" (the elements in logical order, hex),
 * "findings"}; a refusal is exit code 1 with {"error", "hint"}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_sycl_import(void* managed_tensor,
                                                        const char* capsule_name,
                                                        char** result_json);

/* ABI version 3: the CUDA driver of the caller's process (libcuda.so.1,
 * opened at run time; DLPACK_USM_CUDA_DRIVER names another file). A machine
 * without it answers exit code 3 with the reason.
 *
 * What the driver says about `address` (cuPointerGetAttributes): on success
 * *result_json is {"runtime": {...}}, the "runtime" section of a capsule file
 * with cuda_memory_type ("device", "host", "managed", "array",
 * "unregistered"), cuda_ordinal and owner_device (the owning device as the
 * process numbers devices), cuda_device_count, cuda_visible_devices,
 * alloc_base and alloc_size. Pass it as the "runtime" of an inspect request. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_cuda_pointer(uint64_t address, char** result_json);

/* Creates a stream of CUDA device `ordinal`'s primary context, for a caller
 * that passes one to __dlpack__(stream=...); *stream is the CUstream as an
 * integer, and *result_json {"stream", "ordinal"}. The bridge owns it until
 * dlpack_usm_bridge_cuda_stream_destroy. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_cuda_stream_create(int32_t ordinal, uint64_t* stream,
                                                               char** result_json);
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_cuda_stream_destroy(uint64_t stream,
                                                                char** result_json);

/* ABI version 4: copies `size` bytes at `address` to `destination` when every
 * one of them is readable memory of this process, with the facts reader's
 * page-guarded copy: an unmapped, protected or non-canonical address is an
 * answer, never a crash. Returns 0 when copied, 1 when some byte is not
 * readable, 2 for a NULL `destination`. For a caller that must look into a
 * producer's structs (the Python package reads DLPackExchangeAPI tables and
 * the deleter of a tensor they give) without dereferencing them itself. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_read_memory(const void* address, uint64_t size,
                                                        void* destination);

/* ABI version 5: the consumer matrix of `dlpack-usm check --consumer`, for a
 * caller that offers its tensors to consumers of its own (the Python
 * package's `consume`). The offers use the SYCL runtime where dpctl's C
 * interface loads, else the OpenCL runtime.
 *
 * The cells and the root devices with USM: *result_json is {"runtime",
 * "devices": [{"name", "device_id", "kinds", "first_kind"}], "cells":
 * [{"name", "axis" ("version", "dtype", "layout", "invalid"), "valid",
 * "dtype", "shape", "strides", "byte_offset", "version", "flags",
 * "null_data", "features", "features_by_kind", "twin" (the name of the cell's
 * compact twin, which dlpack_usm_bridge_consumer_offer also offers, or
 * null)}], "classes": [{"name", "symbol", "meaning"}] (the profile classes
 * and the legend every rendering of a profile uses)}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_consumer_matrix(char** result_json);

/* Offers one cell: `request_json` is {"cell": NAME, "memory": "cpu" | "host"
 * | "device" | "shared", "device_id": N, "version": "MAJOR.MINOR" (the
 * newest the consumer asked for), "copied": BOOL}. "cpu" is plain host
 * memory (kDLCPU); the others are USM of the root device N (kDLOneAPI),
 * allocated and exported as the command line's check does. *managed_tensor
 * is the DLManagedTensorVersioned* or DLManagedTensor* ("capsule_name" says
 * which), or NULL when the cell cannot be tested here ("untestable" says
 * why) or needs a newer version than the consumer asked for
 * ("consumer_too_old" says which). Its deleter counts its calls; the memory stays readable until
 * the offer is released. *result_json is {"handle", "cell", "valid", "capsule_name", "device",
 * "version", "flags", "dropped_flags", "dtype", "dtype_code", "dtype_bits", "shape",
 * "element_bytes", "elements" (hex, in logical order), "checksum", "untestable",
 * "consumer_too_old"}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_consumer_offer(const char* request_json,
                                                           void** managed_tensor,
                                                           char** result_json);

/* What became of offer `handle`: {"deleter_calls", "written_bytes" (bytes
 * of its memory that differ from what was offered), "stray_deleter_calls"
 * (calls with a tensor the bridge never offered, process-wide)}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_consumer_offer_state(uint64_t handle,
                                                                 char** result_json);

/* Forgets offer `handle` and frees its memory; an offer whose deleter never
 * ran keeps its memory (the consumer may still read it): {"released"}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_consumer_offer_release(uint64_t handle,
                                                                   char** result_json);

/* ABI version 6: the rule catalog, every family (the Python protocol's
 * "python" family included): *result_json is what `dlpack-usm rules --json`
 * prints (conformance/schema/rules.schema.json). */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_rules(char** result_json);

/* ABI version 6: the verdict on what a consumer did with one offered cell,
 * by the model `check --consumer` judges C libraries with (a decline is
 * never a failure; harm is). `observation_json` is {"cell", "valid",
 * "broken_rule", "unknown_major", "read_only", "null_deleter", "action"
 * ("accepted" | "declined" | "crashed" | "hung" | "never_imported" |
 * "not_applicable"), "reason", "exception_type", "device_declined" (true
 * where the plainest tensor on the same memory was declined too; null when
 * not asked), "data_difference" and "view_difference" (text or null),
 * "deleter_calls", "expected_deleter_calls", "read_only_bytes_written",
 * "capsule_not_renamed", "twin" ({"cell", "accepted"} or null: the compact
 * twin offered after a decline), "required_features"}; absent members take
 * their defaults. *result_json is {"outcome" (the profile class, or null),
 * "status" ("pass" | "warn" | "fail" | "not_supported" | "not_applicable"),
 * "message", "findings": [{"rule_id", "severity", "message"}],
 * "decline_reason", "exception_type"}; a malformed observation is 2. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_consumer_verdict(const char* observation_json,
                                                             char** result_json);

/* ABI version 7: DLPack's numbers by the names the answers above use, from
 * the tool's own tables, so that a caller keeps no copy of them:
 * *result_json is {"model_version" (the newest DLPack the tool models,
 * "1.3"), "device_types": {"kDLCPU": 1, ...}, "dtype_codes": {"kDLInt": 0,
 * ...}, "flags": {"READ_ONLY": 1, ...}}. Since ABI version 12 also
 * "deleter_offsets": {"dltensor": 56, "dltensor_versioned": 16}, where the
 * struct a capsule of that name carries keeps its deleter. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_dlpack_names(char** result_json);

/* ABI version 8: `text` read as a max_version, "MAJOR.MINOR" and nothing
 * after it, by the reader the tool's own --max-version uses: *result_json is
 * {"major", "minor"}; text that is no such version is 2 (usage), with the
 * message naming `what` (an option name) and the part that is wrong. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_max_version(const char* text, const char* what,
                                                        char** result_json);

/* ABI version 9: the end of `dlpack-usm check`'s summary for cases the
 * caller ran (the Python package's consume), written by the command line's
 * own code: the verdicts line, the cases that are not ok grouped by verdict,
 * rules and message (numbers aside) with a count, the first ids, one repro
 * line and `see: dlpack-usm rules ID` per rule, the warnings, and the gate
 * line. `request_json` is {"cases": [{"id", "outcome" ("pass", "warn",
 * "fail", "not_supported", "error", "crash", "timeout", "not_run"),
 * "message", "findings": [{"rule_id", "severity", "message"}], "rules" (the
 * rules the case is about), "repro", "duration_ms"}], "strict",
 * "duration_ms", "detail" ("grouped", the default; "every_case", a block per
 * case; "quiet", the gate line alone), "stop_reasons" (why cases were left
 * unrun, each said on a "not run:" line above the gate line; optional)}.
 * Each verdict is decided as `check` decides it with no baseline. *result_json is {"text", "gate"
 * ("passed" | "failed"), "verdicts": {"ok", "expected_failure", "flaky", "unexpected_pass",
 * "regression"}}; a malformed request is 2. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_run_summary(const char* request_json,
                                                        char** result_json);

/* ABI version 11: the stream checks (the `stream` argument of __dlpack__).
 * A caller that stands for a consumer reads a producer's elements on the
 * stream or queue it passed, at once, and again once the device is idle.
 *
 * Copies `size` bytes at the device or managed address `address` to
 * `destination` (host memory of `size` bytes) by a copy on `stream` of CUDA
 * device `ordinal`'s primary context (a CUstream as an integer, or 1 for the
 * legacy default stream, 2 for the per-thread default stream) and waits for
 * that stream: *result_json is {"copied": SIZE}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_cuda_stream_read(int32_t ordinal, uint64_t stream,
                                                             uint64_t address, uint64_t size,
                                                             void* destination, char** result_json);

/* Waits until CUDA device `ordinal`'s primary context is idle (the work of
 * every library of the process on it): {"ordinal"}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_cuda_synchronize(int32_t ordinal, char** result_json);

/* The device a CUstream belongs to: {"stream", "ordinal"}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_cuda_stream_device(uint64_t stream, char** result_json);

/* Copies `size` bytes of USM at `address` to `destination` by a copy
 * submitted to `queue`, a DPCTLSyclQueueRef (dpctl.SyclQueue's
 * addressof_ref()) of the SYCL runtime the bridge loads (dpctl's C
 * interface, as dlpack_usm_bridge_sycl_export finds it), and waits for that
 * copy alone: {"copied": SIZE}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_sycl_queue_read(void* queue, uint64_t address,
                                                            uint64_t size, void* destination,
                                                            char** result_json);

/* ABI version 12: the steps of a Python producer's check, in order, as
 * `dlpack-usm check --python-producer` plans them (one case each):
 * {"steps": [{"name", "asked" (what the step asks the producer, as messages
 * say it), "escape_rule" (the rule an exception of the producer's code that
 * escapes the step breaks; "" for none)}]}. The Python API's check() runs
 * the same steps in this order. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_python_steps(char** result_json);

/* ABI version 12: the DLPackExchangeAPI table at `address` (a type's
 * __dlpack_c_exchange_api__ capsule's pointer), read page-guarded as the
 * facts reader reads tensors: {"header_readable", "version": [MAJOR, MINOR],
 * "prev_api", "table_readable" (a table of major 1 read whole; another
 * major's is not read past its header), "slots": {"managed_tensor_allocator",
 * "managed_tensor_from_py_object_no_sync",
 * "managed_tensor_to_py_object_no_sync", "dltensor_from_py_object_no_sync",
 * "current_work_stream"} (each an address, 0 for NULL)}, the members after
 * "header_readable" only where it is true. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_exchange_api_table(uint64_t address,
                                                               char** result_json);

/* Frees a text the bridge returned; NULL is ignored. */
DLPACK_USM_BRIDGE_API void dlpack_usm_bridge_free(char* text);

/* ABI version 5: writes `size` bytes of `content` to `path` as the command
 * line writes its reports: a regular file or a path that does not exist is
 * replaced atomically (a reader sees the old content or the new; a failed
 * write leaves the old file), a character device or a FIFO is written in
 * place, anything else is refused (2); a write error is 3. `option` names
 * the path in messages (e.g. "--report"; may be NULL). *result_json is
 * {"written": SIZE}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_write_output(const char* path, const void* content,
                                                         uint64_t size, const char* option,
                                                         char** result_json);

/* ABI version 13: `text` (UTF-8, any bytes) made safe to print on one line,
 * by the escaping every text of the command line from outside the tool goes
 * through: control bytes and bytes that are not UTF-8 as \xNN, C1 controls
 * and bidirectional overrides as \u{XXXX}, GitHub's workflow commands ("##["
 * anywhere, "::" at the start) with their first character escaped.
 * *result_json is {"text"}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_printable(const char* text, char** result_json);

/* ABI version 14: what a C program needs to call a plugin (plugin.h) as
 * `check` does, with no tool around it: the standalone snippet of a C
 * plugin's crash report builds and runs such a program (plugin_repro.c,
 * installed in share/dlpack-usm). */
struct DlpackUsmHost;
struct DlpackUsmProduceRequest;

/* The host table `check --runtime RUNTIME` hands a plugin ("opencl",
 * "sycl" or "auto"; NULL is "auto"): every root device with its platform's
 * default context. It lives as long as the process, and the offers
 * (dlpack_usm_bridge_consumer_offer) and produce requests that follow are
 * made on that runtime; asking again for another runtime is an error (2).
 * *result_json is {"runtime": the one chosen}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_plugin_host(const char* runtime,
                                                        const struct DlpackUsmHost** host,
                                                        char** result_json);

/* The produce request `check --producer` makes for one tensor of its
 * matrix, on the runtime of dlpack_usm_bridge_plugin_host (which must come
 * first): `request_json` is {"device_id": N, "sub_device": -1 or the index
 * of the root's sub-device, "memory": "host" | "device" | "shared",
 * "dtype": a DLPack dtype name ("float32"), "layout": "C" | "F" | "strided"
 * | "offset" | "negative" | "size0" | "ndim0", "version": "0.8" | "1.0" |
 * "1.3", "read_only": BOOL}. The consumer queue is NULL: the elements must
 * be ready when produce returns. *request stays valid until the next call.
 * *result_json is {"shape", "strides", "byte_offset", "allocation_bytes"}. */
DLPACK_USM_BRIDGE_API int dlpack_usm_bridge_produce_request(
    const char* request_json, const struct DlpackUsmProduceRequest** request, char** result_json);

#ifdef __cplusplus
}
#endif

#endif /* DLPACK_USM_BRIDGE_H */
