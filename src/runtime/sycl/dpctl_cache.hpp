// Where an interpreter last said dpctl's C interface is, cached so that a
// command does not start Python (a tenth of a second or more) to ask again:
// the small file dpctl-location in the user's cache directory
// ($XDG_CACHE_HOME/dlpack-usm, else ~/.cache/dlpack-usm). It is written
// after an interpreter answered and read before one would be asked, and
// trusted only while what it rests on is unchanged: the interpreter that
// answered is the one that would be asked now, and that interpreter and the
// library have the size and modification time they had (a pip install,
// upgrade or uninstall, or a venv made again, changes one of them). Any
// other case (no file, another format, a stale entry, a file this user does
// not own or others may write) and the interpreter is asked, as it always
// was. A cache that cannot be written is no error: it only saves time.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/sycl/dpctl_location.hpp"

namespace dlpack_usm::runtime::sycl {

// The cache file's path; empty where neither XDG_CACHE_HOME nor HOME says where
// the user's cache is.
std::string dpctl_cache_path();

// What `interpreter` (the file that would be asked, an absolute path) said
// last time, while still true; its found_by names `found_by` and the file.
std::optional<DpctlCandidate> recall_dpctl(const std::string& interpreter,
                                           const std::string& found_by);

// Keeps what `interpreter` answered, replacing the file atomically.
void remember_dpctl(const std::string& interpreter, const DpctlCandidate& answer);

// The answer "no dpctl" is kept too, in dpctl-absent beside the location
// (a machine without dpctl, as the GPU machine, would start Python on every
// command to hear it again): the interpreter, its stamp, and every folder
// it searched (its sys.path under -I) with its modification time. It is
// trusted while the interpreter is as it was and none of those folders
// changed: installing dpctl, or a .pth file of an editable install, adds an
// entry to one of them, which changes its modification time.
std::string dpctl_absent_path();
bool recall_no_dpctl(const std::string& interpreter);
void remember_no_dpctl(const std::string& interpreter, const std::vector<std::string>& searched);

}  // namespace dlpack_usm::runtime::sycl
