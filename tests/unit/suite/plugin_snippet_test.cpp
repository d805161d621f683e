// The standalone C snippet of a plugin's crash report: the library's path
// and the request reach C as string literals that nothing in them can end
// (quotes, backslashes, newlines, the here-document's EOF), and the program
// is compiled with the include folder the tool found. That the program
// crashes alone where the case crashed is plugin_snippet_test in e2e.
#include <gtest/gtest.h>

#include "suite/cases/plugin/plugin_snippet.hpp"

namespace dlpack_usm::suite {
namespace {

const ToolFiles kFiles{"/opt/tool/include", "/opt/tool/lib/libdlpack_usm.so.1"};

SnippetTarget target(const std::string& library, const std::string& runtime = "opencl") {
  return {kFiles, library, runtime};
}

TEST(PluginSnippet, ALibraryPathCannotEndItsLiteralOrTheHereDocument) {
  std::string snippet =
      plugin_consume_snippet(target("/tmp/a\"b\\c\nEOF\n.so"), "f-order", "device", 1);
  EXPECT_NE(snippet.find("dlopen(\"/tmp/a\\\"b\\\\c\\012EOF\\012.so\", RTLD_NOW)"),
            std::string::npos)
      << snippet;
  // The here-document ends once, on its own line, before the compile line.
  EXPECT_EQ(snippet.find("\nEOF\n"), snippet.rfind("\nEOF\n"));
  EXPECT_TRUE(snippet.ends_with(
      "EOF\ncc -g dlpack_usm_repro.c -o dlpack_usm_repro -I/opt/tool/include -ldl && "
      "./dlpack_usm_repro"))
      << snippet;
}

TEST(PluginSnippet, TheConsumerSnippetAsksTheBridgeForTheCasesOffer) {
  std::string snippet = plugin_consume_snippet(target("/lib/x.so", "sycl"), "f-order", "shared", 1);
  EXPECT_NE(snippet.find("dlopen(\"/opt/tool/lib/libdlpack_usm.so.1\", RTLD_NOW)"),
            std::string::npos);
  EXPECT_NE(snippet.find("host_of(\"sycl\", &host, &answer)"), std::string::npos);
  EXPECT_NE(snippet.find("ask(\"{\\\"cell\\\":\\\"f-order\\\",\\\"device_id\\\":1,"
                         "\\\"memory\\\":\\\"shared\\\",\\\"version\\\":\\\"1.3\\\"}\""),
            std::string::npos)
      << snippet;
  EXPECT_NE(snippet.find("plugin->consume(host, tensor, versioned, &result)"), std::string::npos);
}

TEST(PluginSnippet, TheProducerSnippetAsksForTheCasesRequestOnItsSubDevice) {
  matrix::MatrixTensor tensor{facts::UsmKind::host, "float16", "negative", "0.8", true};
  std::string snippet =
      plugin_produce_snippet(target("/lib/p.so"), runtime::DeviceRef{0, 1}, tensor);
  EXPECT_NE(snippet.find("\\\"device_id\\\":0,\\\"dtype\\\":\\\"float16\\\",\\\"layout\\\":"
                         "\\\"negative\\\",\\\"memory\\\":\\\"host\\\",\\\"read_only\\\":true,"
                         "\\\"sub_device\\\":1,\\\"version\\\":\\\"0.8\\\""),
            std::string::npos)
      << snippet;
  EXPECT_NE(snippet.find("plugin->produce(host, request, &tensor, message, sizeof message)"),
            std::string::npos);
  // A legacy request's tensor is freed through the legacy struct.
  EXPECT_NE(snippet.find("request->dlpack_major >= 1"), std::string::npos);
}

TEST(PluginSnippet, WithoutAnIncludeFolderTheCompilerSearchesItsOwn) {
  std::string snippet =
      plugin_consume_snippet({{"", "libdlpack_usm.so.1"}, "/lib/x.so", "opencl"}, "c", "device", 0);
  EXPECT_TRUE(snippet.ends_with("-o dlpack_usm_repro -ldl && ./dlpack_usm_repro")) << snippet;
}

}  // namespace
}  // namespace dlpack_usm::suite
