"""check_report and check: the steps of a producer's check run in a row, in
this process (the Python API)."""

from .._bridge import library
from .._bridge.errors import NotApplicable
from . import _steps, _stream_race
from ._inspect import DEFAULT_MAX_VERSION


def check_report(obj, max_version=DEFAULT_MAX_VERSION, consumer="auto", origin=None,
                 stream_attempts=_stream_race.DEFAULT_ATTEMPTS, remake=None):
    """(Inspection or None, findings): the tensor rules' findings on the
    capsule `obj.__dlpack__(max_version=...)` gives, then the protocol's.
    `consumer` is a callable such as numpy.from_dlpack whose handling of a
    consumed capsule is checked too, "auto" (numpy for kDLCPU, dpnp for
    kDLOneAPI, where importable) or None. A producer that declines the
    export itself is NotApplicable, with its reason, unless the array's own
    __array_interface__ (or CUDA's or SYCL's) shows elements DLPack can
    describe: refusing those is DLP-PY-EXPORT-RAISED's warning. The
    producer's code runs in this process: `python3 -m dlpack_usm check`
    runs it contained. `stream_attempts` is how many late arrays each way
    of asking for a stream gets (the stream checks of CUDA and SYCL arrays;
    0 leaves them out);
    `remake`, a function giving a fresh `obj`, lets them check a producer
    the tool cannot make late arrays of itself."""
    origin = _steps.origin_of(obj, origin)
    base, found = _steps.inspect_base(obj, max_version, origin)
    if base is None:
        return None, found
    check = _steps.Check(obj, base, tuple(max_version), origin, consumer, stream_attempts, remake,
                         flagged=any(item.severity == "error" for item in found))
    for step in library.python_steps():
        if step["name"] not in _steps.STEPS:
            continue
        try:
            found += _steps.run_step(check, step["name"])
        except NotApplicable as blocked:  # a runtime's defect blocks the step
            base.notes.append(f"{step['name']}: not judged, {blocked.message}")
    return base, found


def check(obj, max_version=DEFAULT_MAX_VERSION, consumer="auto",
          stream_attempts=_stream_race.DEFAULT_ATTEMPTS):
    """The findings (a list of Finding) of check_report."""
    return check_report(obj, max_version, consumer, stream_attempts=stream_attempts)[1]
