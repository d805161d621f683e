"""The members every JSON document of dlpack-usm opens with, C++ and Python
alike (src/report/envelope.hpp): "schema" (the document's kind and version,
"dlpack-usm.NAME/N", with its JSON Schema in conformance/schema/), "tool"
and "version" (the version of the tool that wrote it)."""

from ._bridge import library

TOOL = "dlpack-usm"

# The Python documents and their schema files (conformance/schema/FILE).
CHECK_SCHEMA = "dlpack-usm.python-check/1"        # python-check.schema.json
RULES_SCHEMA = "dlpack-usm.rules/1"               # rules.schema.json
CONSUME_SCHEMA = "dlpack-usm.consume-report/2"    # consume-report.schema.json
PROFILE_SCHEMA = "dlpack-usm.profile-report/2"    # profile-report.schema.json


def envelope(schema):
    """The envelope of a document of `schema`, as a dict to put first."""
    return {"schema": schema, "tool": TOOL, "version": library.tool_version()}
