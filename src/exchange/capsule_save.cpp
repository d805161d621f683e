#include "exchange/capsule_save.hpp"

#include "capsule/capsule_file.hpp"
#include "common/atomic_file.hpp"

namespace dlpack_usm::exchange {

void save_capsule_file(const std::filesystem::path& path, const facts::TensorFacts& facts) {
  write_file_atomically(path, capsule::to_capsule_json(facts).dump(
                                  2, ' ', false, nlohmann::json::error_handler_t::replace) +
                                  "\n");
}

}  // namespace dlpack_usm::exchange
