"""check_consumer: the consumer matrix of `dlpack-usm check --consumer`
offered to a Python consumer (numpy.from_dlpack, torch.from_dlpack, ...),
each case contained and judged by the tool's one consumer model (a decline
is never a failure; harm is; a decline of a feature --require names
fails)."""

import datetime
import difflib
import sys
import time
from dataclasses import dataclass, field

from .._bridge import child
from .._bridge.errors import BridgeError
from . import _cuda_stream, _offers, _plan, _report, _runner, _status


def _named_with_closest(typed, known):
    """The names typed, each with the known names close to it, as the
    command line's usage errors say them: "c-ordr (did you mean 'c-order'?)"."""
    shown = []
    for name in typed:
        close = [f"'{match}'" for match in difflib.get_close_matches(name, known, n=3, cutoff=0.75)]
        if len(close) > 1:
            close = [", ".join(close[:-1]) + " or " + close[-1]]
        shown.append(f"{name} (did you mean {close[0]}?)" if close else name)
    return ", ".join(shown)


@dataclass
class ConsumerCheck:
    """What check_consumer found: every case (dicts, as the report holds
    them), the report's header, and the features required."""
    consumer: str
    results: list
    header: dict
    required: list = field(default_factory=list)
    strict: bool = False  # warnings fail too (--strict)

    @property
    def profile(self):
        return _report.profile(self.results)

    @property
    def failed(self):
        """The failing cases, and those a stop signal left not run."""
        failing = _report.failing_statuses(self.strict)
        return [result for result in self.results if result["status"] in failing]

    @property
    def passed(self):
        return not self.failed

    @property
    def interrupted(self):
        """The stop signal that ended the run early (SIGTERM, ...), or None."""
        return _report.interrupted_by(self.results)

    @property
    def stop_reasons(self):
        """Why cases were turned away (--max-failures), each once."""
        return _report.stop_reasons(self.results)

    def case(self, case_id):
        """The result of case `case_id` ("consumer/cpu/cpu/c-order")."""
        for result in self.results:
            if result["id"] == case_id:
                return result
        raise KeyError(case_id)

    def outcome(self, case_id):
        return self.case(case_id)["outcome"]

    def to_json(self):
        return _report.report_json(self.header, self.results)

    def text(self, detail="grouped"):
        """What `consume` prints: `detail` "grouped" (a block per group of
        alike failing cases), "every_case" (a block per case) or "quiet"
        (the gate line alone), as check's default, -v and -q."""
        return _report.text(self.consumer, self.results, self.header["classes"], self.strict,
                            detail, self.required, self.header.get("duration_ms", 0))

    def junit(self):
        return _report.junit(self.consumer, self.results, self.strict)


def consumer_name(consumer):
    module = getattr(consumer, "__module__", None) or ""
    name = getattr(consumer, "__qualname__", None) or repr(consumer)
    return f"{module}.{name}" if module else name


def package_versions():
    """The versions of the consumers' packages people ask about."""
    found = {}
    for module in ("numpy", "dpnp", "dpctl", "torch", "cupy", "jax", "jaxlib",
                   "array_api_strict"):
        if module in sys.modules:
            found[module] = str(getattr(sys.modules[module], "__version__", "unknown"))
    return found


def check_consumer(consumer, devices=None, require=(), timeout_s=child.TIMEOUT_S,
                   name=None, progress=None, command_line=None, cells=None, packages=None,
                   strict=False, max_failures=0, status_interval_s=0):
    """Offers every case of the matrix to `consumer` (a callable taking a
    producer object, as from_dlpack functions do) and returns a
    ConsumerCheck. `devices` keeps only those devices ("cpu" is plain host
    memory, the others are names such as "opencl:cpu:0"); `require` names
    features whose clean declines fail; `cells` keeps only the cells of
    those names (all by default); `strict` makes warnings fail;
    `max_failures` (0: never) stops the run after that many failing cases,
    the rest not_run; `status_interval_s` (0: never) prints a status line on
    stderr that often. Raises BridgeError (exit code 2)
    for an unknown device or feature, 3 when no runtime starts."""
    name = name or consumer_name(consumer)
    started_at = datetime.datetime.now(datetime.timezone.utc)
    started = time.monotonic()
    matrix = child.in_child(_offers.matrix, timeout_s)
    # CUDA is asked in a child too: it must not start in this process, which
    # the case runners fork from.
    cuda = _cuda_stream.specs(child.in_child(_cuda_stream.devices, timeout_s))
    known_devices = _plan.device_names(matrix) + [spec["device"] for spec in cuda]
    if devices:
        unknown = sorted(set(devices) - set(known_devices))
        if unknown:
            raise BridgeError(f"no device named {_named_with_closest(unknown, known_devices)}",
                              f"the devices here are {', '.join(known_devices)}")
    specs = _plan.cases(matrix, set(devices) if devices else None)
    specs += [spec for spec in cuda if not devices or spec["device"] in devices]
    if cells:
        cell_names = [cell["name"] for cell in matrix["cells"]]
        unknown = sorted(set(cells) - set(cell_names))
        if unknown:
            raise BridgeError("no cell of the matrix is named "
                              f"{_named_with_closest(unknown, cell_names)}",
                              "the cells: " + ", ".join(cell_names))
        specs = [spec for spec in specs if spec["cell"]["name"] in set(cells)]
    known = _plan.features(specs)
    unknown = sorted(set(require) - set(known))
    if unknown:
        raise BridgeError("--require names no feature of the matrix: "
                          f"{_named_with_closest(unknown, known)}",
                          f"features: {', '.join(known)}")
    ready = {}
    status = _status.StatusLines(len(specs), status_interval_s)

    def finished(result):
        status.count(result)
        if progress:
            progress(result)

    results = _runner.run_contained(consumer, specs, timeout_s, finished, require,
                                    package_versions, ready.update,
                                    _runner.Limits(max_failures, strict),
                                    status.tick if status_interval_s > 0 else None)
    finished_at = datetime.datetime.now(datetime.timezone.utc)
    header = {"consumer": name,
              "packages": packages if packages is not None else ready,
              "started_at": started_at.isoformat(), "finished_at": finished_at.isoformat(),
              "duration_ms": round((time.monotonic() - started) * 1000, 3),
              "command_line": command_line or [], "runtime": matrix["runtime"],
              "devices": [{"name": "cpu", "memory": ["cpu"]}] +
                         [{"name": device["name"], "device_id": device["device_id"],
                           "memory": device["kinds"]} for device in matrix["devices"]],
              "required": sorted(require), "strict": strict, "classes": matrix["classes"]}
    return ConsumerCheck(name, results, header, sorted(require), strict)
