// Whether the dynamic loader could find a shared library, asked without
// loading it: loading runs the library's constructors (a CUDA driver's, a
// Level Zero loader's), which the tool does only in a probe process, and a
// probe process costs a fork. So a library that is surely absent is not
// probed at all (list-devices on a machine without CUDA).
#pragma once

#include <string>

namespace dlpack_usm {

// False only where dlopen(name) surely finds nothing: a name with a '/' that
// is no file; a bare name in none of the directories of LD_LIBRARY_PATH, not
// in /etc/ld.so.cache and in none of the system's library directories (nor
// their glibc-hwcaps subdirectories). True where that cannot be told (a
// cache that cannot be read).
bool shared_library_may_be_found(const std::string& name);

}  // namespace dlpack_usm
