// Whether dlopen could find a library, asked without loading it: found in
// LD_LIBRARY_PATH, in the loader's cache or the system's directories; not
// found where it is in none of them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "common/library_search.hpp"

namespace dlpack_usm {
namespace {

namespace fs = std::filesystem;

TEST(LibrarySearch, APathIsThatFile) {
  EXPECT_TRUE(shared_library_may_be_found("/proc/self/exe"));
  EXPECT_FALSE(shared_library_may_be_found("/nonexistent/libcuda.so.1"));
}

TEST(LibrarySearch, TheCLibraryIsFoundAndANameNobodyHasIsNot) {
  EXPECT_TRUE(shared_library_may_be_found("libc.so.6"));
  EXPECT_FALSE(shared_library_may_be_found("libdlpack-usm-no-such-library.so.7"));
}

TEST(LibrarySearch, LdLibraryPathIsSearchedFirst) {
  fs::path dir =
      fs::temp_directory_path() / ("dlpack-usm-library-search-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "libdlpack-usm-fake.so.1") << "not a library";
  const char* before = std::getenv("LD_LIBRARY_PATH");
  std::optional<std::string> saved = before ? std::optional<std::string>(before) : std::nullopt;
  EXPECT_FALSE(shared_library_may_be_found("libdlpack-usm-fake.so.1"));
  setenv("LD_LIBRARY_PATH", ("/nonexistent:" + dir.string()).c_str(), 1);
  EXPECT_TRUE(shared_library_may_be_found("libdlpack-usm-fake.so.1"));
  if (saved) {
    setenv("LD_LIBRARY_PATH", saved->c_str(), 1);
  } else {
    unsetenv("LD_LIBRARY_PATH");
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dlpack_usm
