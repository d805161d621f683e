// The standalone snippet of a Python case's crash report: EXPR and the
// cell reach Python as literals that nothing in them can end (quotes,
// backslashes, newlines, the here-document's EOF), and the interpreter and
// package are the workers'.
#include <gtest/gtest.h>

#include "suite/cases/python/python_snippet.hpp"

namespace dlpack_usm::suite {
namespace {

TEST(PythonSnippet, LiteralsEscapeEverythingThatCouldEndThem) {
  EXPECT_EQ(python_literal("numpy.from_dlpack"), "'numpy.from_dlpack'");
  EXPECT_EQ(python_literal("a'b\\c"), "'a\\'b\\\\c'");
  EXPECT_EQ(python_literal("x\nEOF\n"), "'x\\x0aEOF\\x0a'");
  EXPECT_EQ(python_literal("\xc3\xa9"), "'\\xc3\\xa9'");
}

TEST(PythonSnippet, ConsumerSnippetRunsTheConsumerOnTheOfferedCell) {
  PythonTarget target;
  target.role = PythonRole::consumer;
  target.text = "consumers.aborts_on_f_order";
  target.setup = {"/venv/bin/python", "/tool/python"};
  EXPECT_EQ(consumer_snippet(target, "f-order", "cpu", 0),
            "PYTHONPATH=/tool/python${PYTHONPATH:+:$PYTHONPATH} /venv/bin/python -X faulthandler "
            "- <<'EOF'\n"
            "from dlpack_usm.repro import consumer, offered\n"
            "consumer('consumers.aborts_on_f_order')(offered('f-order', 'cpu', 0))\n"
            "EOF");
  target.role = PythonRole::library;
  target.text = "dpnp";
  target.setup = {"python3", ""};
  EXPECT_EQ(consumer_snippet(target, "c-order", "device", 1),
            "python3 -X faulthandler - <<'EOF'\n"
            "from dlpack_usm.repro import consumer, offered\n"
            "consumer('dpnp.from_dlpack')(offered('c-order', 'device', 1))\n"
            "EOF");
}

TEST(PythonSnippet, HandoffSnippetGivesTheProducersTensorToTheConsumer) {
  PythonTarget target;
  target.role = PythonRole::handoff;
  target.text = "numpy.ones(4)";
  target.consumer = "lambda x: f(x)";
  target.setup = {"python3", ""};
  EXPECT_EQ(handoff_snippet(target, "direct", "", 0),
            "python3 -X faulthandler - <<'EOF'\n"
            "from dlpack_usm.repro import handoff\n"
            "handoff('numpy.ones(4)', 'lambda x: f(x)', 'direct')\n"
            "EOF");
  target.text = "dpnp";
  EXPECT_EQ(handoff_snippet(target, "host-copy", "f-order", 1),
            "python3 -X faulthandler - <<'EOF'\n"
            "from dlpack_usm.repro import handoff\n"
            "handoff('dpnp', 'lambda x: f(x)', 'host-copy', cell='f-order', device_index=1)\n"
            "EOF");
}

TEST(PythonSnippet, ProducerSnippetAsksTheStepWithTheCasesMaxVersion) {
  PythonTarget target;
  target.role = PythonRole::producer;
  target.text = "producers.EndsProcess('segv')";
  target.max_version = "1.1";
  target.setup = {"python3", ""};
  EXPECT_EQ(producer_snippet(target, "versioned"),
            "python3 -X faulthandler - <<'EOF'\n"
            "from dlpack_usm.repro import producer_step\n"
            "print(producer_step('producers.EndsProcess(\\'segv\\')', 'versioned', "
            "max_version='1.1'))\n"
            "EOF");
}

}  // namespace
}  // namespace dlpack_usm::suite
