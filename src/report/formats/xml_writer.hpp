// A small XML writer for the reports that are XML (JUnit): elements nest
// and close in order, every attribute value and text is escaped in one
// place, and an element without children closes itself ("<skipped .../>").
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlpack_usm::report {

// XML 1.0 text: escapes markup and replaces characters XML cannot carry
// (control characters, invalid UTF-8) with U+FFFD.
std::string xml_escape(std::string_view text);

using XmlAttributes = std::vector<std::pair<std::string_view, std::string>>;

class XmlWriter {
 public:
  // Starts the document with its declaration (UTF-8).
  XmlWriter();

  // An element whose children follow, up to the matching end().
  void start(std::string_view name, const XmlAttributes& attributes = {});
  void end();
  // An element holding text alone (none: it closes itself).
  void element(std::string_view name, const XmlAttributes& attributes, std::string_view text = {});

  // The document; every started element must have ended.
  std::string finish();

 private:
  void open_tag(std::string_view name, const XmlAttributes& attributes);
  // A started element that has no child yet still lacks its '>'.
  void close_pending_start();

  std::string xml_;
  std::vector<std::string> open_;
  bool start_pending_ = false;
};

}  // namespace dlpack_usm::report
