// The producer side of a Python library's profile, planned here: the
// cells (arrays the worker makes through the library's array API
// namespace, one maker per name in python/dlpack_usm/profile/_cells.py)
// and the requests (the ways the array API standard lets a consumer ask
// __dlpack__ for a capsule), every cell asked every request on every
// device the library has. Cells are named as the consumer matrix names its
// cells where both have one (dtype-int8, f-order, ndim-3, read-only), so
// that a row of the compatibility matrix reads the same both ways.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlpack_usm::suite {

struct ProfileCellSpec {
  std::string name;   // "dtype-int8", "f-order", "ndim-3"
  std::string axis;   // "layout", "dtype", "ndim", "size0", "read-only"
  std::string value;  // "int8", "f-order", "3", "2d", "read-only"
};

// One way of asking __dlpack__: its axis and value as the matrix shows
// them, and the keywords, with the array's own device where it names it.
struct ProfileRequest {
  std::string axis;   // "max_version", "dl_device", "copy", "stream"
  std::string value;  // "None", "1.3", "kDLCPU:0 copy=False", "True", "True dl_device=own"
  // {"max_version": [1, 3]}, {"dl_device": "own" | "another" | [type, id], "copy": b}, ...
  nlohmann::json keywords;

  // "max_version=1.3", "dl_device=kDLCPU:0,copy=False": the request in an id.
  std::string id() const;
  // Whether it names the array's own device (dl_device of its own).
  bool names_own_device() const;
};

// The reference array (c-order) first: every request is asked of it.
const std::vector<ProfileCellSpec>& profile_cells();
// The base request (max_version of the newest release, what from_dlpack
// asks today) first: every cell is asked it.
const std::vector<ProfileRequest>& profile_requests();
// The rest of the copy oracle's grid (copy x dl_device x max_version),
// asked of the reference array alone: the answer to copy does not hang on
// the dtype or layout, and every cell would add 7 cases to each.
const std::vector<ProfileRequest>& copy_oracle_requests();

inline constexpr const char* kReferenceCell = "c-order";

}  // namespace dlpack_usm::suite
