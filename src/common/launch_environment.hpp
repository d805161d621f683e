// The environment as the process received it. Some OpenCL ICD loaders
// (ocl-icd) tokenize OCL_ICD_FILENAMES in place, so after the first OpenCL
// call the live environment says "libpocl.so.2" where the user wrote
// "libpocl.so.2:libnvidia-opencl.so.1". Child processes must get what the
// user set, not what the loader left behind.
#pragma once

#include <string>
#include <vector>

namespace dlpack_usm {

// "NAME=value" entries copied before main() runs, in their original order.
const std::vector<std::string>& launch_environment();

}  // namespace dlpack_usm
