#include "report/formats/xml_writer.hpp"

#include "common/error.hpp"
#include "common/utf8.hpp"

namespace dlpack_usm::report {
namespace {

// One ASCII character as XML text: markup escaped, the control characters
// XML 1.0 cannot carry replaced.
void append_escaped_ascii(std::string& out, char c) {
  switch (c) {
    case '&':
      out += "&amp;";
      return;
    case '<':
      out += "&lt;";
      return;
    case '>':
      out += "&gt;";
      return;
    case '"':
      out += "&quot;";
      return;
    case '\'':
      out += "&apos;";
      return;
    case '\t':
    case '\n':
    case '\r':
      out += c;
      return;
    default:
      bool control = static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
      out += control ? std::string_view("\xEF\xBF\xBD") : std::string_view(&c, 1);
  }
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    Utf8Char decoded = decode_utf8(text, i);
    if (decoded.length == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (decoded.length == 1) {
      append_escaped_ascii(out, text[i]);
    } else if (decoded.code_point == 0xFFFE || decoded.code_point == 0xFFFF) {
      out += "\xEF\xBF\xBD";  // not among XML 1.0's characters
    } else {
      out.append(text.substr(i, decoded.length));
    }
    i += decoded.length;
  }
  return out;
}

XmlWriter::XmlWriter() : xml_("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") {}

void XmlWriter::start(std::string_view name, const XmlAttributes& attributes) {
  open_tag(name, attributes);
  open_.emplace_back(name);
  start_pending_ = true;
}

void XmlWriter::end() {
  if (open_.empty()) throw Error(ExitCode::internal, "XmlWriter: end() without start()");
  std::string name = std::move(open_.back());
  open_.pop_back();
  if (start_pending_) {
    xml_ += "/>\n";
    start_pending_ = false;
    return;
  }
  xml_.append(2 * open_.size(), ' ').append("</").append(name).append(">\n");
}

void XmlWriter::element(std::string_view name, const XmlAttributes& attributes,
                        std::string_view text) {
  open_tag(name, attributes);
  if (text.empty()) {
    xml_ += "/>\n";
    return;
  }
  xml_.append(">").append(xml_escape(text)).append("</").append(name).append(">\n");
}

std::string XmlWriter::finish() {
  if (!open_.empty()) throw Error(ExitCode::internal, "XmlWriter: an element was not ended");
  return std::move(xml_);
}

void XmlWriter::open_tag(std::string_view name, const XmlAttributes& attributes) {
  close_pending_start();
  xml_.append(2 * open_.size(), ' ').append("<").append(name);
  for (const auto& [key, value] : attributes) {
    xml_.append(" ").append(key).append("=\"").append(xml_escape(value)).append("\"");
  }
}

void XmlWriter::close_pending_start() {
  if (!start_pending_) return;
  xml_ += ">\n";
  start_pending_ = false;
}

}  // namespace dlpack_usm::report
