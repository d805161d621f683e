"""The Python worker of the tool's one runner (src/suite/runner, and
src/suite/cases/python/python_worker.hpp): `python -m dlpack_usm._worker`,
started by `dlpack-usm check` for the cases of a Python library under test.
It takes the result channel the runner hands it, reads its batch of case
specs on stdin, imports the library once, says it is ready, and runs each
case: the calls into the library and what they show (a capsule read, the
elements read back, the stream passed). It sends one record per case, and
announces its calls into the library, so that a crash or a hang is charged
by the runner to the case and call it happened in. The plan, the verdict
on a consumer, the gate and every output are the C++ side's."""
