#include "suite/cases/python/python_profile_cells.hpp"

#include <fmt/format.h>

#include "dlpack/names.hpp"

namespace dlpack_usm::suite {
namespace {

// The dtypes the array API standard names, then two the consumer matrix
// offers too, where the namespace has them.
constexpr const char* kDtypes[] = {"bool",    "int8",      "int16",      "int32",   "int64",
                                   "uint8",   "uint16",    "uint32",     "uint64",  "float32",
                                   "float64", "complex64", "complex128", "float16", "bfloat16"};
// ndim 0 to 8 with extent 2, and 40, as the consumer matrix has them.
constexpr int kNdims[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 40};

std::vector<ProfileCellSpec> make_cells() {
  std::vector<ProfileCellSpec> cells;
  for (const char* layout :
       {"c-order", "f-order", "strided", "negative-stride", "broadcast", "byte-offset"}) {
    cells.push_back({layout, "layout", layout});
  }
  for (const char* dtype : kDtypes)
    cells.push_back({fmt::format("dtype-{}", dtype), "dtype", dtype});
  for (int ndim : kNdims) {
    cells.push_back({fmt::format("ndim-{}", ndim), "ndim", std::to_string(ndim)});
  }
  for (const char* size0 : {"1d", "2d", "view"}) {
    cells.push_back({fmt::format("size0-{}", size0), "size0", size0});
  }
  cells.push_back({"read-only", "read-only", "read-only"});
  return cells;
}

nlohmann::json version_json(dlpack::Release release) {
  return nlohmann::json::array({release.major, release.minor});
}

ProfileRequest max_version_request(std::optional<dlpack::Release> version) {
  nlohmann::json keywords = nlohmann::json::object();
  if (version) keywords["max_version"] = version_json(*version);
  return {"max_version", version ? dlpack::to_string(*version) : "None", std::move(keywords)};
}

// dl_device of the array's own device (`type_name` empty) or of another
// device type's device 0, with copy unset or set.
ProfileRequest dl_device_request(std::string_view type_name, std::optional<bool> copy) {
  nlohmann::json keywords{{"max_version", version_json(dlpack::kModelRelease)}};
  std::string value;
  if (type_name.empty()) {
    keywords["dl_device"] = "own";
    value = "own";
  } else {
    keywords["dl_device"] = nlohmann::json::array({dlpack::find_device_type(type_name)->value, 0});
    value = fmt::format("{}:0", type_name);
  }
  if (copy) {
    keywords["copy"] = *copy;
    value += fmt::format(" copy={}", *copy ? "True" : "False");
  }
  return {"dl_device", std::move(value), std::move(keywords)};
}

template <typename Value>
ProfileRequest newest_with(const char* name, Value value, std::string shown) {
  return {name,
          std::move(shown),
          {{"max_version", version_json(dlpack::kModelRelease)}, {name, value}}};
}

std::vector<ProfileRequest> make_requests() {
  std::vector<ProfileRequest> requests{max_version_request(dlpack::kModelRelease)};
  for (std::optional<dlpack::Release> version :
       {std::optional<dlpack::Release>{}, std::optional{dlpack::Release{0, 8}},
        std::optional{dlpack::Release{1, 0}}, std::optional{dlpack::Release{2, 0}}}) {
    requests.push_back(max_version_request(version));
  }
  requests.push_back(dl_device_request("", std::nullopt));
  requests.push_back(dl_device_request("kDLCPU", std::nullopt));
  requests.push_back(dl_device_request("kDLCPU", false));
  for (const char* type : {"kDLCUDA", "kDLOneAPI"}) {
    requests.push_back(dl_device_request(type, std::nullopt));
    requests.push_back(dl_device_request(type, false));
  }
  requests.push_back(newest_with("copy", true, "True"));
  requests.push_back(newest_with("copy", false, "False"));
  for (int stream : {-1, 0, 1, 2})
    requests.push_back(newest_with("stream", stream, std::to_string(stream)));
  return requests;
}

// The copy oracle's cells the requests above leave out (python/dlpack_usm/
// producer/_copy_oracle.py judges them all): copy set with dl_device of
// the array's own device or of another ("another": the host for an array
// off the host, a CUDA device for a host array), copy unset with another
// device, and copy set with no max_version (a consumer of DLPack 0.x).
std::vector<ProfileRequest> make_oracle_requests() {
  std::vector<ProfileRequest> requests;
  for (const char* target : {"own", "another"}) {
    for (std::optional<bool> copy :
         {std::optional<bool>{}, std::optional{true}, std::optional{false}}) {
      if (std::string_view(target) == "own" && !copy) continue;  // dl_device=own asks it
      nlohmann::json keywords{{"max_version", version_json(dlpack::kModelRelease)},
                              {"dl_device", target}};
      std::string shown = copy ? (*copy ? "True" : "False") : "None";
      if (copy) keywords["copy"] = *copy;
      requests.push_back({"copy", fmt::format("{} dl_device={}", shown, target), keywords});
    }
  }
  for (bool copy : {true, false}) {
    requests.push_back(
        {"copy", fmt::format("{} max_version=None", copy ? "True" : "False"), {{"copy", copy}}});
  }
  return requests;
}

}  // namespace

std::string ProfileRequest::id() const {
  std::string shown = value;
  for (char& c : shown) {
    if (c == ' ') c = ',';
  }
  return fmt::format("{}={}", axis, shown);
}

bool ProfileRequest::names_own_device() const {
  auto device = keywords.find("dl_device");
  return device != keywords.end() && device->is_string();
}

const std::vector<ProfileCellSpec>& profile_cells() {
  static const std::vector<ProfileCellSpec> cells = make_cells();
  return cells;
}

const std::vector<ProfileRequest>& profile_requests() {
  static const std::vector<ProfileRequest> requests = make_requests();
  return requests;
}

const std::vector<ProfileRequest>& copy_oracle_requests() {
  static const std::vector<ProfileRequest> requests = make_oracle_requests();
  return requests;
}

}  // namespace dlpack_usm::suite
