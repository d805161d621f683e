// The standalone snippet of a C plugin's crash report: two shell lines that
// build the shipped reproduction program (share/plugin_repro.c) with the
// include folder the tool found and run it with the case's words. Every
// word is quoted for the shell, so that a path with quotes, newlines or a
// command substitution reaches the compiler or the program as one argument,
// unchanged. That the program crashes alone where the case crashed is
// plugin_snippet_test in e2e.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/shell_quote.hpp"
#include "suite/cases/plugin/plugin_snippet.hpp"

namespace dlpack_usm::suite {
namespace {

namespace fs = std::filesystem;

const ToolFiles kFiles{"/opt/tool/include", "/opt/tool/lib/libdlpack_usm.so.1",
                       "/opt/tool/share/dlpack-usm/plugin_repro.c"};

SnippetTarget target(const std::string& library, const std::string& runtime = "opencl") {
  return {kFiles, library, runtime};
}

TEST(PluginSnippet, TheConsumerSnippetBuildsTheShippedProgramAndOffersTheCasesTensor) {
  EXPECT_EQ(plugin_consume_snippet(target("/lib/x.so", "sycl"), "f-order", "shared", 1),
            "cc -g /opt/tool/share/dlpack-usm/plugin_repro.c -o dlpack_usm_repro "
            "-I/opt/tool/include -ldl &&\n"
            "  ./dlpack_usm_repro consume /opt/tool/lib/libdlpack_usm.so.1 /lib/x.so sycl "
            "'{\"cell\":\"f-order\",\"device_id\":1,\"memory\":\"shared\",\"version\":\"1.3\"}'");
}

TEST(PluginSnippet, TheProducerSnippetAsksForTheCasesRequestOnItsSubDevice) {
  matrix::MatrixTensor tensor{facts::UsmKind::host, "float16", "negative", "0.8", true};
  std::string snippet =
      plugin_produce_snippet(target("/lib/p.so"), runtime::DeviceRef{0, 1}, tensor);
  EXPECT_TRUE(snippet.ends_with(
      "\n  ./dlpack_usm_repro produce /opt/tool/lib/libdlpack_usm.so.1 /lib/p.so opencl "
      "'{\"device_id\":0,\"dtype\":\"float16\",\"layout\":\"negative\",\"memory\":\"host\","
      "\"read_only\":true,\"sub_device\":1,\"version\":\"0.8\"}'"))
      << snippet;
}

TEST(PluginSnippet, WithoutAnIncludeFolderTheCompilerSearchesItsOwn) {
  ToolFiles files{"", "libdlpack_usm.so.1", "/src/share/plugin_repro.c"};
  std::string snippet = plugin_consume_snippet({files, "/lib/x.so", "opencl"}, "c", "device", 0);
  EXPECT_TRUE(snippet.starts_with("cc -g /src/share/plugin_repro.c -o dlpack_usm_repro -ldl &&\n"))
      << snippet;
}

// A snippet that cannot build is worse than the case's repro line alone.
TEST(PluginSnippet, WithoutTheProgramsSourceThereIsNoSnippet) {
  ToolFiles files{"/opt/tool/include", "libdlpack_usm.so.1", ""};
  EXPECT_EQ(plugin_consume_snippet({files, "/lib/x.so", "opencl"}, "c", "device", 0), "");
  matrix::MatrixTensor tensor{facts::UsmKind::device, "float32", "C", "1.3", false};
  EXPECT_EQ(plugin_produce_snippet({files, "/lib/p.so", "opencl"}, {0, {}}, tensor), "");
}

// The NUL-separated words a stand-in of `name` got, written as
// "NAME.args" in its folder.
std::vector<std::string> words_written(const fs::path& folder, const std::string& name) {
  std::ifstream in(folder / (name + ".args"), std::ios::binary);
  std::vector<std::string> words;
  for (std::string word; std::getline(in, word, '\0');) words.push_back(word);
  return words;
}

// An executable shell script `path` that writes its arguments into
// `path`.args, each followed by a NUL.
void write_stand_in(const fs::path& path) {
  std::ofstream(path) << "#!/bin/sh\nprintf '%s\\000' \"$@\" > " << shell_quote(path.string())
                      << ".args\n";
  fs::permissions(path, fs::perms::owner_all);
}

TEST(PluginSnippet, EveryPathReachesTheCompilerOrTheProgramAsOneWordUnchanged) {
  fs::path folder =
      fs::temp_directory_path() / ("dlpack-usm-plugin-snippet-" + std::to_string(getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder / "bin");
  // Stand-ins for the compiler (found first on PATH) and the program it
  // would have built: each says what it was given.
  write_stand_in(folder / "bin" / "cc");
  write_stand_in(folder / "dlpack_usm_repro");

  std::string hostile = "/tmp/it's \"a\" \\ `true`\n$(touch made-by-the-shell)\nEOF";
  ToolFiles files{hostile + "/include", hostile + "/libdlpack_usm.so.1", hostile + "/repro.c"};
  matrix::MatrixTensor tensor{facts::UsmKind::device, "float32", "C", "1.3", false};
  std::string snippet =
      plugin_produce_snippet({files, hostile + "/lib.so", "opencl"}, {0, {}}, tensor);
  std::ofstream(folder / "snippet.sh") << snippet << "\n";
  std::string command = "cd " + shell_quote(folder.string()) +
                        " && PATH=" + shell_quote((folder / "bin").string()) +
                        ":\"$PATH\" sh snippet.sh";
  ASSERT_EQ(std::system(command.c_str()), 0) << snippet;

  EXPECT_EQ(words_written(folder / "bin", "cc"),
            (std::vector<std::string>{"-g", hostile + "/repro.c", "-o", "dlpack_usm_repro",
                                      "-I" + hostile + "/include", "-ldl"}));
  EXPECT_EQ(words_written(folder, "dlpack_usm_repro"),
            (std::vector<std::string>{"produce", hostile + "/libdlpack_usm.so.1",
                                      hostile + "/lib.so", "opencl",
                                      "{\"device_id\":0,\"dtype\":\"float32\",\"layout\":\"C\","
                                      "\"memory\":\"device\",\"read_only\":false,"
                                      "\"sub_device\":-1,\"version\":\"1.3\"}"}));
  EXPECT_FALSE(fs::exists(folder / "made-by-the-shell"));
  fs::remove_all(folder);
}

}  // namespace
}  // namespace dlpack_usm::suite
