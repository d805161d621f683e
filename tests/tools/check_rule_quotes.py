"""Every quoted sentence of the rule catalog (`dlpack-usm rules --json`, the
Python protocol's family included) occurs in the source its reference names:

- "dlpack.h 1.3, ...": the DLPack 1.3 header the PyPI wheel apache-tvm-ffi
  ships (tvm_ffi/include/dlpack/dlpack.h), installed in the tools venv by
  scripts/setup.sh; no copy of it lives in this repository;
- "dlpack.h 0.6, ...": Debian's libdlpack-dev header (DLPACK_VERSION 60);
- "dlpack-usm plugin.h": the tool's own plugin interface
  (include/dlpack_usm/plugin.h), whose documentation says what a library
  under test must do;
- "dlpack-usm-check(1), ...": the tool's own manual page, for a rule that
  rests on an option of the user's (check --require);
- a web page: the sentence list below, which this test owns, one list per
  page, each sentence as the page shows it.

A rule that rests on a definition ("normative": "definition", an error for a
value outside the domain its field's definition gives) quotes the defining
sentence as it stands today: from the 1.3 header, plugin.h or a page, never
from the 0.6 header, and never nothing. Convention quotes are checked like
any other.

Header comments span lines with ` * ` prefixes, so quotes and sources are
compared with comment markers dropped and whitespace collapsed. A missing
source fails the test where the Python modules are required (CI:
DLPACK_USM_REQUIRE_PEERS or DLPACK_USM_REQUIRE_USM), and skips it with the
package named elsewhere (tests/tools/optional_module.py).

Usage: check_rule_quotes.py DLPACK_USM_BINARY SOURCE_DIR"""

import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import optional_module  # noqa: E402

DEBIAN_HEADER = os.environ.get("DLPACK_USM_DLPACK_06_HEADER", "/usr/include/dlpack/dlpack.h")


# The web pages the catalog quotes, as its references spell them.
ARRAY_API = ("Python array API standard 2024.12, array.__dlpack__ (https://data-apis.org/array-api/"
             "2024.12/API_specification/generated/array_api.array.__dlpack__.html)")
ARRAY_API_DEVICE = ("Python array API standard 2024.12, array.__dlpack_device__ (https://data-apis."
                    "org/array-api/2024.12/API_specification/generated/"
                    "array_api.array.__dlpack_device__.html)")
PYTHON_SPEC = ("DLPack documentation, Python Specification for DLPack "
               "(https://dmlc.github.io/dlpack/latest/python_spec.html)")
SUAI = ("dpctl documentation, __sycl_usm_array_interface__ attribute (https://intelpython.github.io/"
        "dpctl/latest/api_reference/dpctl/sycl_usm_array_interface.html)")
DPCTL_DLPACK = ("dpctl documentation, DLPack exchange of USM allocated arrays "
                "(https://intelpython.github.io/dpctl/latest/user_guides/dlpack.html)")
IPEX_DLPACK = ("Intel Extension for PyTorch documentation, DLPack Solution "
               "(https://intel.github.io/intel-extension-for-pytorch/xpu/latest/tutorials/"
               "features/DLPack.html)")


# Sentences of web pages as the pages show them (markup dropped). A quote
# must be part of one of its page's sentences.
ARRAY_API_SENTENCES = [
    "Exports the array for consumption by from_dlpack() as a DLPack capsule.",
    "On CPU and other device types without streams, only None is accepted.",
    "This method may return a capsule of version max_version (recommended if it does support "
    "that), or of a different version.",
    "Default is None, meaning the exported capsule should be on the same device as self is.",
    "If the device type cannot be handled by the producer, this function must raise BufferError.",
    "If False, the function must never copy, and raise a BufferError in case a copy is deemed "
    "necessary (e.g. if a cross-device data movement is requested, and it is not possible "
    "without a copy).",
    "When a copy happens, the DLPACK_FLAG_BITMASK_IS_COPIED flag must be set.",
    "If None, the function must reuse the existing memory buffer if possible and copy "
    "otherwise.",
    "Implementations should raise BufferError when the data cannot be exported as DLPack "
    "(e.g., incompatible dtype or strides).",
    "It is recommended for the producer to use this logic in the implementation of __dlpack__:",
    "If so, use that. Else, the producer should raise a BufferError here to tell users that the "
    "consumer's max_version is too old to allow the data exchange to happen.",
    "This logic is also applicable to handling of the new dl_device and copy keywords.",
    "Support for a stream value other than None is optional and implementation-dependent.",
    "0 is disallowed due to its ambiguity: 0 could mean either None, 1, or 2.",
    "DLPack 1.0 added a flag to indicate that the array is read-only "
    "(DLPACK_FLAG_BITMASK_READ_ONLY).",
    "stream is provided by the consumer to the producer to instruct the producer to ensure that "
    "operations can safely be performed on the array (e.g., by inserting a dependency between "
    "streams via \"wait for event\").",
    "The pointer must be an integer larger than or equal to -1 (see below for allowed values on "
    "each platform).",
    "In particular, when kDLCPU is in use, stream must be None and a synchronization must be "
    "performed to ensure data safety.",
]
FROM_DLPACK = ("Python array API standard 2024.12, from_dlpack (https://data-apis.org/array-api/"
               "2024.12/API_specification/generated/array_api.from_dlpack.html)")
FROM_DLPACK_SENTENCES = [
    "If True, the function must always copy.",
    "If False, the function must never copy, and raise BufferError in case a copy is deemed "
    "necessary (e.g. if a cross-device data movement is requested, and it is not possible "
    "without a copy).",
]
ARRAY_API_DEVICE_SENTENCES = ["Returns device type and device ID in DLPack format."]
PYTHON_SPEC_SENTENCES = [
    "The producer must set the PyCapsule name to \"dltensor\" so that it can be inspected by "
    "name, and set PyCapsule_Destructor that calls the deleter of the DLManagedTensor when the "
    "\"dltensor\"-named capsule is no longer needed.",
    "The consumer must transer ownership of the DLManagedTensor from the capsule to its own "
    "object.",
    "The __dlpack__ method will produce a PyCapsule containing a DLManagedTensor, which will be "
    "consumed immediately within from_dlpack - therefore it is consumed exactly once, and it "
    "will not be visible to users of the Python API.",
    "If an array that is accessed via the interchange protocol lives on a device that the "
    "requesting (consumer) library does not support, it is recommended to raise a BufferError, "
    "unless an explicit copy is requested (see below) and the producer can support the request.",
    "The consumer must pass the stream it will use to the producer; the producer must "
    "synchronize or wait on the stream when necessary.",
]
SUAI_SENTENCES = [
    "Python objects representing USM allocations, such as dpctl.memory.MemoryUSMDevice, "
    "dpctl.memory.MemoryUSMShared, dpctl.memory.MemoryUSMHost, or dpctl.tensor.usm_ndarray, "
    "distinguish themselves from other Python objects by providing __sycl_usm_array_interface__ "
    "attribute describing the allocation in a Python dictionary with the following fields:",
    "Python object from which SYCL context to which represented USM allocation is bound.",
    "A 2-tuple whose first element is a Python integer encoding USM pointer value.",
]
DPCTL_DLPACK_SENTENCES = [
    # The export protocol's exception message, two C++ string literals joined.
    "Can not export USM allocations not bound to default platform context.",
]
SYCL_POINTER_QUERIES = ("SYCL 2020 reference, USM pointer queries, sycl::get_pointer_device "
                        "(https://github.khronos.org/SYCL_Reference/iface/usm_pointer_queries.html)")
SYCL_POINTER_QUERIES_SENTENCES = [
    "Returns the sycl::device associated with the USM allocation.",
    "If ptr points within a device USM allocation or a shared USM allocation for the context "
    "syclContext, returns the same device that was passed when allocating the memory.",
    "If ptr points within a host USM allocation for the context syclContext, returns the first "
    "device in syclContext.",
]
SYCL_ENQUEUE_BARRIER = (
    "sycl_ext_oneapi_enqueue_barrier, handler::ext_oneapi_barrier (https://github.com/intel/llvm/"
    "blob/sycl/sycl/doc/extensions/supported/sycl_ext_oneapi_enqueue_barrier.asciidoc)")
# The extension's table of the handler's members, as the page has it.
SYCL_ENQUEUE_BARRIER_SENTENCES = [
    "Prevents any commands submitted afterward to this queue from executing until all commands "
    "previously submitted to this queue have entered the `info::event_command_status::complete` "
    "state.",
    "Prevents any commands submitted afterward to this queue from executing until all events in "
    "`waitList` have entered the `info::event_command_status::complete` state.",
]
IPEX_DLPACK_SENTENCES = [
    "The device_id in DLDevice is one of the SYCL runtime device ids, which may be different "
    "from the actual framework device in use.",
    "When producing a DLPack capsule, DPC++ runtime will get the device where memory allocation "
    "was original made.",
    "If the device has parent device, we will find its parent device index enumerated in "
    "sycl::device::get_devices() then put to device_id.",
    "sycl::usm::device is the only supported type.",
]


def web_sentences():
    """The sentences above by reference, spelled as the catalog's rules
    spell their references."""
    return {
        ARRAY_API: ARRAY_API_SENTENCES,
        ARRAY_API_DEVICE: ARRAY_API_DEVICE_SENTENCES,
        FROM_DLPACK: FROM_DLPACK_SENTENCES,
        PYTHON_SPEC: PYTHON_SPEC_SENTENCES,
        SUAI: SUAI_SENTENCES,
        DPCTL_DLPACK: DPCTL_DLPACK_SENTENCES,
        IPEX_DLPACK: IPEX_DLPACK_SENTENCES,
        SYCL_POINTER_QUERIES: SYCL_POINTER_QUERIES_SENTENCES,
        SYCL_ENQUEUE_BARRIER: SYCL_ENQUEUE_BARRIER_SENTENCES,
    }


def collapse(text):
    return re.sub(r"\s+", " ", text).strip()


def header_text(path):
    """The header with comment markers dropped and whitespace collapsed."""
    lines = []
    for line in pathlib.Path(path).read_text().splitlines():
        line = re.sub(r"^\s*(/\*+!?|\*+/|\*(?!/)|//+)", " ", line)
        lines.append(line.replace("*/", " "))
    return collapse(" ".join(lines))


def man_text(path):
    """A manual page's text: requests and font escapes dropped, \\- read as -,
    whitespace collapsed."""
    lines = []
    for line in pathlib.Path(path).read_text().splitlines():
        if line.startswith((".TH", ".SH", ".SS", ".TP", ".PP", ".IP", ".RS", ".RE", ".TS", ".TE")):
            continue
        line = re.sub(r"^\.(B|I|BR|RB|BI|IR|RI)\s+", "", line)
        lines.append(line.replace("\\-", "-").replace('"', ""))
    return collapse(" ".join(lines))


def dlpack_13_header():
    spec = importlib.util.find_spec("tvm_ffi")
    if spec is None or not spec.submodule_search_locations:
        # Named with how to get it; a failure where the modules are required
        # (CI), a skip (77) on a developer's machine without them.
        print("check_rule_quotes: the PyPI package apache-tvm-ffi (module tvm_ffi) is not "
              "installed in this interpreter; scripts/setup.sh installs it into the tools venv, "
              f"or run `{os.path.basename(sys.executable)} -m pip install apache-tvm-ffi`",
              file=sys.stderr)
        sys.exit(1 if optional_module.required() else optional_module.SKIPPED)
    path = pathlib.Path(spec.submodule_search_locations[0]) / "include/dlpack/dlpack.h"
    return path


PLUGIN_HEADER = "dlpack-usm plugin.h"
# The tool's own manual, for a rule whose basis is the user's option (check
# --require): its page is the source.
CHECK_PAGE = "dlpack-usm-check(1)"
# Where a definition may be quoted from: the newest header and the sources
# that have no older version.
DEFINITION_HEADERS = ("dlpack.h 1.3", PLUGIN_HEADER)


def quote_source(reference, headers, web):
    """The text (a header) or sentence list (a page) the reference names,
    with which kind it is; (None, None) when this test has no such source."""
    if reference == PLUGIN_HEADER:
        return PLUGIN_HEADER, headers[PLUGIN_HEADER]
    if reference.startswith(CHECK_PAGE + ","):
        return CHECK_PAGE, headers[CHECK_PAGE]
    for name, text in headers.items():
        if reference.startswith(name + ","):
            return name, text
    if reference in web:
        return "web", web[reference]
    return None, None


def check_version(path, patterns):
    text = pathlib.Path(path).read_text()
    for pattern in patterns:
        if not re.search(pattern, text, re.MULTILINE):
            sys.exit(f"check_rule_quotes: {path} is not the header expected ({pattern})")


def main():
    binary, source_dir = sys.argv[1], sys.argv[2]
    header_13 = dlpack_13_header()
    check_version(header_13, [r"^#define DLPACK_MAJOR_VERSION 1$",
                              r"^#define DLPACK_MINOR_VERSION 3$"])
    check_version(DEBIAN_HEADER, [r"^#define DLPACK_VERSION 60$"])
    headers = {"dlpack.h 1.3": header_text(header_13), "dlpack.h 0.6": header_text(DEBIAN_HEADER),
               PLUGIN_HEADER: header_text(pathlib.Path(source_dir) / "include/dlpack_usm/plugin.h"),
               CHECK_PAGE: man_text(pathlib.Path(source_dir) / "man/dlpack-usm-check.1")}
    web = {reference: [collapse(s) for s in sentences]
           for reference, sentences in web_sentences().items()}

    tool = json.loads(subprocess.run([binary, "rules", "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    # Every family, the Python protocol's included: one catalog.
    rules = tool["rules"]
    misses = []
    checked = 0
    definitions = 0
    for rule in rules:
        quote = collapse(rule["quote"])
        if not quote:
            if rule["normative"] != "heuristic":
                misses.append(f"{rule['rule_id']}: rests on '{rule['normative']}' but quotes nothing")
            continue
        reference = rule["reference"]
        kind, source = quote_source(reference, headers, web)
        if kind is None:
            misses.append(f"{rule['rule_id']}: no source to check '{reference}' against; add the "
                          "page's sentences to web_sentences()")
            continue
        if rule["normative"] == "definition":
            definitions += 1
            if kind not in DEFINITION_HEADERS and kind != "web":
                misses.append(f"{rule['rule_id']}: a definition is quoted from {reference}; quote "
                              "it from the DLPack 1.3 header as it stands today")
        checked += 1
        found = quote in source if kind != "web" else any(quote in s for s in source)
        if not found:
            misses.append(f"{rule['rule_id']}: not in {reference}: \"{quote}\"")
    for miss in misses:
        print(miss)
    print(f"check_rule_quotes: {checked} quotes checked ({definitions} definitions), "
          f"{len(misses)} problems")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
