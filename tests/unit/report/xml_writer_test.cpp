// The XML writer of the JUnit report: nesting, self-closing elements and
// escaping in one place.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "report/formats/xml_writer.hpp"

namespace dlpack_usm::report {
namespace {

TEST(XmlWriter, NestsIndentsAndClosesEmptyElementsThemselves) {
  XmlWriter xml;
  xml.start("suites", {{"name", "a"}});
  xml.start("case", {{"time", "0.001"}});
  xml.end();
  xml.start("case");
  xml.element("failure", {{"type", "fail"}}, "detail");
  xml.element("skipped", {{"message", "m"}});
  xml.end();
  xml.end();
  EXPECT_EQ(xml.finish(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<suites name=\"a\">\n"
            "  <case time=\"0.001\"/>\n"
            "  <case>\n"
            "    <failure type=\"fail\">detail</failure>\n"
            "    <skipped message=\"m\"/>\n"
            "  </case>\n"
            "</suites>\n");
}

TEST(XmlWriter, EscapesAttributesAndTextAndReplacesWhatXmlCannotCarry) {
  XmlWriter xml;
  xml.element("e", {{"a", "<\"&'>"}}, "x\x1b[31m\xff\n\xc3\xa9");
  EXPECT_EQ(xml.finish(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<e a=\"&lt;&quot;&amp;&apos;&gt;\">x\xEF\xBF\xBD[31m\xEF\xBF\xBD\n\xc3\xa9</e>\n");
}

TEST(XmlWriter, AnUnbalancedDocumentIsTheToolsBug) {
  XmlWriter unended;
  unended.start("a");
  EXPECT_THROW(unended.finish(), Error);
  XmlWriter unstarted;
  EXPECT_THROW(unstarted.end(), Error);
}

}  // namespace
}  // namespace dlpack_usm::report
