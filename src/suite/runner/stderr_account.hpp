// What a case's stderr said when it crashed or hung, told apart: the
// library's own lines, and the lines a runtime prints on its own behalf (the
// LLVM crash handler inside Intel's SYCL and OpenCL CPU runtimes, asking for
// a bug report to Intel; the Unified Runtime's adapter messages), labelled
// as a runtime's, whichever runtime ran (--runtime sycl or opencl), so that
// a reader does not take them for the library's words or the tool's.
#pragma once

#include <string>

namespace dlpack_usm::suite {

// "; its stderr ended with: ..." for `err` (empty for none), its last 2000
// bytes; the runtime's lines after "; the runtime printed: ...".
std::string stderr_account(const std::string& err);

}  // namespace dlpack_usm::suite
