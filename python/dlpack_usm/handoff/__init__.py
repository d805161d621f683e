"""A handoff: one library's tensor given to another library's consumer
(`dlpack-usm handoff PRODUCER CONSUMER`, `python -m dlpack_usm handoff`),
observed step by step in a Python worker of the tool's runner: what the
producer emitted, what the consumer did with it, compared element by
element, and the remedies a user can try, each tried for real. The verdict
and whose fault it is are the tool's one model's (src/suite/cases/python/
python_handoff_cases.cpp plans the cases; src/cli/handoff_story.cpp tells
them)."""

from ._observe import CONSUMER, PRODUCER, observe
from ._remedies import REMEDIES

__all__ = ["CONSUMER", "PRODUCER", "REMEDIES", "observe"]
