"""The copy oracle of a producer: what the array API standard (2024.12,
array.__dlpack__) expects for each copy in {None, True, False} and each
dl_device in {unset, the array's own device, another device}, and the
findings where an answer departs from it.

  copy=True   "the function must always copy": other memory, IS_COPIED set
              (a versioned capsule), on the device asked for; or a decline
  copy=False  "must never copy": the array's own memory, IS_COPIED unset, on
              the device asked for where the memory is reachable there;
              else BufferError
  copy=None   "must reuse the existing memory buffer if possible": the
              array's own memory on its own device; another device a copy
              with IS_COPIED, or BufferError

A library may decline any request: a decline is never a failure, and one
with another exception than BufferError (TypeError aside: the keyword is not
taken) is a warning. "The array's own memory" is the address the base
request (copy=None, no dl_device) exported."""

from .._bridge import capsules, dlpack, tensor_json
from ..rules import finding
from ._protocol import arguments, name_finding, read_answer

# (copy, target) in the order a profile shows them; "unset" asks no
# dl_device, "own" the array's own, "another" another device type's.
GRID = tuple((copy, target) for target in ("unset", "own", "another")
             for copy in (None, True, False))
EXPECTED = {
    (None, "unset"): "the array's own memory",
    (None, "own"): "the array's own memory",
    (None, "another"): "a copy on the device asked for (IS_COPIED) or the array's memory "
                       "where that device reaches it, or BufferError",
    (True, "unset"): "a copy (other memory, IS_COPIED) or a decline",
    (True, "own"): "a copy (other memory, IS_COPIED) or a decline",
    (True, "another"): "a copy on the device asked for (IS_COPIED) or a decline",
    (False, "unset"): "the array's own memory without IS_COPIED, or BufferError",
    (False, "own"): "the array's own memory without IS_COPIED, or BufferError",
    (False, "another"): "the array's own memory where the device asked for reaches it, "
                        "else BufferError",
}


def another_device(own):
    """The other device a request names: the host for an array off the
    host (the copy the standard asks libraries to offer), a CUDA device for
    a host array."""
    if own is not None and dlpack.on(own, "kDLCPU"):
        return (dlpack.device_type("kDLCUDA"), 0)
    return (dlpack.device_type("kDLCPU"), 0)


def keywords(copy, target, own, max_version):
    """__dlpack__'s keywords for one cell of the grid."""
    asked = {} if max_version is None else {"max_version": tuple(max_version)}
    if target == "own":
        asked["dl_device"] = tuple(own)
    elif target == "another":
        asked["dl_device"] = another_device(own)
    if copy is not None:
        asked["copy"] = copy
    return asked


def target_of(kwargs, own):
    if "dl_device" not in kwargs:
        return "unset"
    return "own" if tuple(kwargs["dl_device"]) == tuple(own) else "another"


def _elements(capsule):
    count = 1
    for extent in (capsule.get("dl_tensor") or {}).get("shape") or ():
        count *= extent
    return count


def _start(capsule):
    body = capsule.get("dl_tensor") or {}
    return tensor_json.data_address(capsule) + int(body.get("byte_offset") or 0)


class Answer:
    """What one capsule is, next to the array's own export `base`."""

    def __init__(self, inspection, base):
        self.versioned = inspection.capsule_name == capsules.VERSIONED
        self.flagged = "IS_COPIED" in tensor_json.flag_names(inspection.capsule)
        self.device = tensor_json.device(inspection.capsule)
        compared = _elements(inspection.capsule) > 0 and _start(base.capsule) != 0
        self.other = compared and _start(inspection.capsule) != _start(base.capsule)
        self.shared = compared and not self.other
        self.base_flagged = "IS_COPIED" in tensor_json.flag_names(base.capsule)

    def text(self):
        where = f"on {self.device}"
        memory = "other memory" if self.other else "the array's own memory" if self.shared \
            else "an empty tensor"
        return f"{memory} {where}" + (" with IS_COPIED" if self.flagged else "")


def answer_text(capsule, error, inspection, base):
    """What the producer answered, as the oracle's row shows it; `inspection`
    is the capsule as the caller read it (None: no tensor capsule)."""
    if error is not None:
        return f"{type(error).__name__}: {error}"
    if inspection is None:
        return capsules.describe(capsule)
    return Answer(inspection, base).text()


def _decline_findings(kwargs, error, target):
    """A decline: never a failure; TypeError is clean (the keyword is not
    taken), the own device refused warns, another class than BufferError
    for a copy or another device warns."""
    if isinstance(error, (TypeError, BufferError)) and target != "own":
        return []
    copy = kwargs.get("copy")
    if target == "own" and copy is not True and not isinstance(error, TypeError):
        return [finding("DLP-PY-DL-DEVICE-OWN", "__dlpack__",
                        f"__dlpack__({arguments(kwargs)}) raised {type(error).__name__} "
                        f"({error}) for the array's own device")]
    if isinstance(error, (TypeError, BufferError)):
        return []
    return [finding("DLP-PY-DECLINE-CLASS", "__dlpack__",
                    f"__dlpack__({arguments(kwargs)}) declined with {type(error).__name__} "
                    f"({error}) instead of BufferError")]


def _copy_true_findings(kwargs, answer):
    if answer.shared:
        return [finding("DLP-PY-COPY-FLAG", "dl_tensor.data",
                        f"__dlpack__({arguments(kwargs)}) returned the array's own memory: no "
                        "copy was made")]
    if answer.versioned and not answer.flagged:
        return [finding("DLP-PY-COPY-FLAG", "flags",
                        f"__dlpack__({arguments(kwargs)}) returned a tensor without "
                        "DLPACK_FLAG_BITMASK_IS_COPIED")]
    return []


def _copy_none_findings(kwargs, answer, target):
    found = []
    if answer.other and answer.versioned and not answer.flagged:
        found.append(finding("DLP-PY-COPY-FLAG", "flags",
                             f"__dlpack__({arguments(kwargs)}) returned a copy on {answer.device} "
                             "without DLPACK_FLAG_BITMASK_IS_COPIED"))
    if answer.shared and answer.flagged and not answer.base_flagged:
        found.append(finding("DLP-PY-COPIED-FLAG-SHARED", "flags",
                             f"__dlpack__({arguments(kwargs)}) set IS_COPIED on the array's own "
                             "memory"))
    if answer.other and target == "own" and not answer.base_flagged:
        found.append(finding("DLP-PY-COPY-NONE-COPIED", "dl_tensor.data",
                             f"__dlpack__({arguments(kwargs)}) copied, where the same array's "
                             "answer without dl_device reused its memory"))
    return found


def judge(capsule, error, kwargs, base, origin):
    """The findings on one answer; `base` is the Inspection of the array's
    own export (the base request's answer)."""
    own = tensor_json.device(base.capsule)
    target = target_of(kwargs, own)
    if error is not None:
        return _decline_findings(kwargs, error, target)
    inspection = read_answer(capsule, origin)
    if inspection is None:
        return [name_finding(capsule, kwargs)]
    answer = Answer(inspection, base)
    found = []
    wanted = tuple(own) if target == "unset" else tuple(kwargs["dl_device"])
    if answer.device != wanted:
        rule = "DLP-PY-DL-DEVICE-OWN" if target == "own" else "DLP-PY-DL-DEVICE-FOREIGN"
        found.append(finding(rule, "dl_tensor.device",
                             f"__dlpack__({arguments(kwargs)}) returned a tensor on "
                             f"{answer.device}: the dl_device asked for was ignored"))
    copy = kwargs.get("copy")
    if copy is True:
        return found + _copy_true_findings(kwargs, answer)
    if copy is False:
        if answer.other or answer.flagged:
            found.append(finding("DLP-PY-NO-COPY-COPIED", "flags" if answer.flagged else
                                 "dl_tensor.data",
                                 f"__dlpack__({arguments(kwargs)}) made a copy"))
        return found
    return found + _copy_none_findings(kwargs, answer, target)


def oracle_note(kwargs, capsule, error, inspection, base):
    """The row the profile keeps: the ask, what the standard expects, what
    came back (read once, by the caller)."""
    own = tensor_json.device(base.capsule)
    expected = EXPECTED[(kwargs.get("copy"), target_of(kwargs, own))]
    return (f"copy oracle: expected {expected}; answered "
            f"{answer_text(capsule, error, inspection, base)}")


# What `check` asks of a producer: the grid less the base request (copy
# unset, no dl_device), which every other answer is compared with.
CHECKED = tuple(cell for cell in GRID if cell != (None, "unset"))


def check_grid(ask, base, max_version, origin, cells=CHECKED):
    """The findings of the cells asked of one array; `ask(**kw)` gives
    (capsule, error)."""
    found = []
    own = tensor_json.device(base.capsule)
    for copy, target in cells:
        kwargs = keywords(copy, target, own, max_version)
        capsule, error = ask(**kwargs)
        found += judge(capsule, error, kwargs, base, origin)
        del capsule
    return found
