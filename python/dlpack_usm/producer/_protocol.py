"""The Python-level DLPack protocol of a producer (and of a consumer): what
__dlpack__ answers for each way a consumer may call it, whether
__dlpack_device__ agrees, and whether a real consumer renames what it
consumed. Every capsule asked for here is read without being consumed and
dropped, so that its producer frees it."""

from .._bridge import capsules, dlpack, tensor_json
from .._bridge.errors import describe_exception
from ..rules import finding
from ._foreign import calling
from ._inspect import read_capsule

# Results of consumers that broke the ownership protocol. Dropping them
# could free a tensor twice (the producer's destructor and the consumer
# both believe they own it), so they are kept for the life of the process:
# a small leak instead of a crash.
_QUARANTINE = []


def ask(obj, **kwargs):
    """(capsule, None) or (None, the exception __dlpack__ raised)."""
    try:
        with calling(f"__dlpack__({arguments(kwargs)})"):
            return obj.__dlpack__(**kwargs), None
    except BaseException as error:  # noqa: B036 - what a producer raises (SystemExit too) is the thing under test
        # Without its traceback: the frames it holds would keep `obj` and the
        # capsules of this call alive until the garbage collector ran.
        return None, error.with_traceback(None)


def arguments(kwargs):
    """"max_version=(1, 3), copy=True": keyword arguments as a call shows them."""
    return ", ".join(f"{key}={value!r}" for key, value in kwargs.items())


def read_answer(capsule, origin):
    """The Inspection of a returned capsule, or None when it is no tensor
    capsule (DLP-PY-CAPSULE-NAME reports that)."""
    if not capsules.is_capsule(capsule) or capsules.capsule_name(capsule) not in \
            capsules.TENSOR_NAMES:
        return None
    return read_capsule(capsule, origin)


def name_finding(capsule, kwargs):
    return finding("DLP-PY-CAPSULE-NAME", "__dlpack__",
                   f"__dlpack__({arguments(kwargs)}) returned {capsules.describe(capsule)}; "
                   "expected a capsule named \"dltensor\" or \"dltensor_versioned\"")


# What a consumer of DLPack 0.x that passes max_version says it speaks.
LEGACY_MAX_VERSION = dlpack.LAST_LEGACY


def destructor_findings(capsule, inspection, kwargs):
    """DLP-PY-CAPSULE-DESTRUCTOR: a tensor with a deleter in a capsule that
    will never call it when dropped unconsumed."""
    if not inspection.capsule.get("deleter", True) or capsules.has_destructor(capsule):
        return []
    return [finding("DLP-PY-CAPSULE-DESTRUCTOR", "capsule destructor",
                    f"__dlpack__({arguments(kwargs)}) returned a {inspection.capsule_name!r} "
                    "capsule whose tensor has a deleter, but the capsule has no destructor: "
                    "dropped unconsumed, it never calls the deleter and the tensor leaks")]


def _legacy_findings(capsule, kwargs, base, origin):
    """Findings on a "dltensor" capsule a DLPack 0.x consumer got: its
    destructor, and whether the array it carries is read only."""
    inspection = read_capsule(capsule, origin)
    found = destructor_findings(capsule, inspection, kwargs)
    if base is not None and base.capsule_name == capsules.VERSIONED and \
            "READ_ONLY" in tensor_json.flag_names(base.capsule):
        found.append(finding("DLP-PY-READ-ONLY-LEGACY", "__dlpack__",
                             f"__dlpack__({arguments(kwargs)}) returned a \"dltensor\" capsule "
                             "of an array whose versioned export is READ_ONLY: a legacy "
                             "DLManagedTensor has no flag to say so, and its consumer may write "
                             "into it (raise BufferError instead, as numpy does)"))
    return found


def judge_legacy(capsule, error, kwargs, base, origin):
    """Findings on the answer a consumer of DLPack 0.x got: one that passes
    no max_version (`kwargs` without it) or max_version=(0, 8). A legacy
    capsule or BufferError is the answer, never a versioned one (a producer
    that compares max_version the wrong way round gives one); `base` is the
    Inspection of the array's versioned export, None where it has none."""
    if error is not None:
        # BufferError is allowed; TypeError for max_version: the producer does
        # not take it (DLP-PY-VERSIONED-OFFERED); other failures are seen
        # everywhere else.
        return []
    name = capsules.capsule_name(capsule) if capsules.is_capsule(capsule) else None
    if name == capsules.VERSIONED and "max_version" not in kwargs:
        return [finding("DLP-PY-LEGACY-DEFAULT", "__dlpack__",
                        "__dlpack__() without max_version returned a \"dltensor_versioned\" "
                        "capsule, which a consumer of DLPack 0.x cannot read")]
    if name == capsules.VERSIONED:
        return [finding("DLP-PY-VERSION-ABOVE-MAX", "__dlpack__",
                        f"__dlpack__({arguments(kwargs)}) returned a \"dltensor_versioned\" "
                        "capsule (DLPack 1.x) to a consumer of DLPack 0.x, which cannot read it: "
                        "answer with a \"dltensor\" capsule or raise BufferError")]
    if name != capsules.LEGACY:
        return [name_finding(capsule, kwargs)]
    return _legacy_findings(capsule, kwargs, base, origin)


def check_legacy_default(obj, base, origin):
    capsule, error = ask(obj)
    return judge_legacy(capsule, error, {}, base, origin)


def check_legacy_max_version(obj, base, origin):
    kwargs = {"max_version": LEGACY_MAX_VERSION}
    capsule, error = ask(obj, **kwargs)
    return judge_legacy(capsule, error, kwargs, base, origin)


def judge_versioned(capsule, error, max_version, origin):
    """(findings, whether the producer speaks DLPack 1.x keywords) of the
    answer to __dlpack__(max_version=max_version), a version 1.x or above."""
    if isinstance(error, TypeError):
        return [finding("DLP-PY-VERSIONED-OFFERED", "__dlpack__",
                        f"__dlpack__(max_version={max_version!r}) raised TypeError ({error}): "
                        "the producer does not take max_version and exports DLPack 0.x only")], \
            False
    if isinstance(error, BufferError):
        return [], False
    if error is not None:
        return [finding("DLP-PY-KEYWORD-TYPEERROR", "__dlpack__",
                        f"__dlpack__(max_version={max_version!r}) raised "
                        f"{type(error).__name__} ({error}); a producer that does not take the "
                        "keyword should raise TypeError: consumers fall back to __dlpack__() "
                        "on TypeError only")], False
    name = capsules.capsule_name(capsule) if capsules.is_capsule(capsule) else None
    if name == capsules.LEGACY:
        return [finding("DLP-PY-VERSIONED-OFFERED", "__dlpack__",
                        f"__dlpack__(max_version={max_version!r}) returned a legacy "
                        "\"dltensor\" capsule; DLManagedTensorVersioned (flags, version) is "
                        "recommended")], False
    if name != capsules.VERSIONED:
        return [name_finding(capsule, {"max_version": max_version})], False
    inspection = read_capsule(capsule, origin)
    found = destructor_findings(capsule, inspection, {"max_version": max_version})
    version = tensor_json.version(inspection.capsule)
    if version is not None and version[0] > max_version[0]:
        found.append(finding("DLP-PY-VERSION-ABOVE-MAX", "version.major",
                             f"__dlpack__(max_version={max_version!r}) returned version "
                             f"{version[0]}.{version[1]}, a major version the consumer does not "
                             "know"))
        # Nothing past the header of such a tensor may be read, so neither
        # may the answers to dl_device and copy.
        return found, False
    return found, True


def check_versioned(obj, max_version, origin):
    """Findings, and whether the producer speaks DLPack 1.x keywords."""
    capsule, error = ask(obj, max_version=max_version)
    return judge_versioned(capsule, error, max_version, origin)


def check_device_agrees(obj, base):
    own = tensor_json.device(base.capsule)
    try:
        with calling("__dlpack_device__()"):
            reported = obj.__dlpack_device__()
    except AttributeError:
        return [finding("DLP-PY-DEVICE-AGREES", "__dlpack_device__",
                        "the object has __dlpack__ but no __dlpack_device__")]
    except BaseException as error:  # noqa: B036 - SystemExit from a producer is a finding too
        return [finding("DLP-PY-DEVICE-AGREES", "__dlpack_device__",
                        f"__dlpack_device__() raised {describe_exception(error)}")]
    try:
        as_numbers = (int(reported[0]), int(reported[1])) if len(reported) == 2 else None
    except BaseException:  # noqa: B036 - its __len__ or __getitem__ is the producer's code
        as_numbers = None
    if as_numbers is None:
        return [finding("DLP-PY-DEVICE-AGREES", "__dlpack_device__",
                        f"__dlpack_device__() returned {reported!r}, not a (device_type, "
                        "device_id) pair")]
    if own is not None and as_numbers != tuple(own):
        return [finding("DLP-PY-DEVICE-AGREES", "__dlpack_device__",
                        f"__dlpack_device__() says {as_numbers} but the exported tensor is on "
                        f"{tuple(own)}")]
    return []


def judge_stream_on_cpu(capsule, error, kwargs):
    """DLP-PY-STREAM-CPU where __dlpack__(stream=...) of a kDLCPU array,
    asked with a stream other than None, returned a capsule."""
    if error is not None:
        return []
    return [finding("DLP-PY-STREAM-CPU", "__dlpack__",
                    f"__dlpack__({arguments(kwargs)}) returned a capsule for a kDLCPU array; "
                    "only stream=None is accepted for devices without streams")]


def check_stream_on_cpu(obj, base, max_version):
    if not dlpack.on(tensor_json.device(base.capsule), "kDLCPU"):
        return []
    capsule, error = ask(obj, stream=1)
    del capsule
    return judge_stream_on_cpu(None, error, {"stream": 1})


def unreadable_finding(unreadable):
    return finding("DLP-PY-MEMORY-UNREADABLE", unreadable.field, unreadable.message)


class _CapsuleHandout:
    """Stands for the producer towards a consumer: hands it one capsule
    this package asked for, so that the capsule's fate can be watched."""

    def __init__(self, capsule, device):
        self._capsule = capsule
        self._device = device

    def __dlpack__(self, **kwargs):
        return self._capsule

    def __dlpack_device__(self):
        return self._device


def _consume(consumer, capsule, device):
    """What `consumer` returns for a handout of `capsule`, announced as a
    consumer's call: its crash is no finding about the producer."""
    with calling(f"{consumer_name(consumer)}(a capsule of the producer)", consumer=True):
        return consumer(_CapsuleHandout(capsule, device))


def consumer_name(consumer):
    return getattr(consumer, "__qualname__", None) or repr(consumer)


def check_consumer(obj, consumer, max_version, device):
    """DLP-PY-CONSUMER-* findings of `consumer` (numpy.from_dlpack, ...)
    consuming a fresh capsule of `obj`, whose tensor is on `device` (as the
    capsule says: the producer's __dlpack_device__ is judged elsewhere);
    none when it cannot consume it."""
    capsule, error = ask(obj, max_version=max_version)
    if error is not None:
        capsule, error = ask(obj)
    if error is not None or not capsules.is_capsule(capsule):
        return []
    name = capsules.capsule_name(capsule)
    if name not in capsules.TENSOR_NAMES:
        return []
    try:
        result = _consume(consumer, capsule, device)
    except Exception:
        return []  # this consumer cannot take this tensor: nothing to judge
    used = capsules.USED_NAMES[name]
    now = capsules.capsule_name(capsule)
    if now != used:
        _QUARANTINE.append((capsule, result))
        return [finding("DLP-PY-CONSUMER-RENAME", "capsule name",
                        f"{consumer_name(consumer)} consumed a {name!r} "
                        f"capsule and left it named {now!r} instead of {used!r}")]
    try:
        again = _consume(consumer, capsule, device)
    except Exception:
        return []
    _QUARANTINE.append((capsule, result, again))
    return [finding("DLP-PY-CONSUMER-REUSE", "capsule name",
                    f"{consumer_name(consumer)} accepted a capsule named "
                    f"{used!r}, which was consumed already")]
