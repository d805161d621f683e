"""Runs a producer profile contained, as `check` and `consume` run code
under test: a zygote imports the library once (never the command's own
process, and never a device runtime: a fork of an initialised CUDA or JAX
is not usable), and forks runners from it. The first runner discovers the
library's devices; the next run the cases in order, reporting each start,
each call into the library and each result. A runner that dies or stops
answering is charged to the case it was running (crash, hang), or, where it
was making the cell's array, to every case of that cell; a new runner goes
on after it. A stop signal ends the run: the cases left are not run."""

import time

from .._bridge import channel
from .._bridge.errors import BridgeError
from .._bridge.interrupts import Interrupted
from .._bridge.zygote import Zygote
from ..producer import _foreign
from . import _library, _plan, _run


class _Library:
    """The zygote's side: the namespace it imported, and the runners' work."""

    def __init__(self, module):
        self.module = module
        self.namespace = None

    def prepare(self):
        self.namespace = _library.import_namespace(self.module)

    def describe(self):
        return _library.describe(self.module)

    def run_runner(self, start, data):
        def work(send):
            _foreign.listen(send)
            if start.get("discover"):
                send("R", _library.discover(self.namespace, start["named"]))
                return
            specs = _plan.cases(start["devices"], start["cells"])
            arrays = _run.Arrays(self.namespace,
                                 _library.devices(self.namespace, start["named"]),
                                 start["origin"])
            for index in range(start["first"], len(specs)):
                send("S", index)
                send("R", _run.run_case(arrays, specs[index]))
        channel.run_child(work, data)


class Profiler:
    """The command's side: one zygote for the discovery and the cases."""

    def __init__(self, module, timeout_s, named_devices=None):
        self.library = _Library(module)
        self.named = named_devices
        self.timeout_s = timeout_s
        self.zygote = Zygote(self.library.prepare, self.library.describe,
                             self.library.run_runner, timeout_s)
        self.description = self.zygote.description

    def discover(self):
        """The library's devices (_library.discover), found in a runner."""
        self.zygote.start({"discover": True, "named": self.named}, self.timeout_s)
        while True:
            event = self.zygote.next_event(self.timeout_s)
            if event == "timeout" or event[0] in ("ended", "garbled"):
                self.zygote.end_runner()
                raise BridgeError(f"{self.library.module} crashed or hung while its devices "
                                  f"were listed and an array made on each ({event})",
                                  f"try `zeros(3)` of {self.library.module} in python3 first",
                                  exit_code=3)
            if event[0] == "X":
                raise channel.error_of(event[1])
            if event[0] == "R":
                self.zygote.end_runner()
                return event[1]

    def run(self, devices, cells, origin, progress=None):
        """The record of every case, in order (_plan.cases)."""
        specs = _plan.cases(devices, cells)
        results = []
        try:
            while len(results) < len(specs):
                self.zygote.start({"first": len(results), "devices": devices, "cells": cells,
                                   "origin": origin, "named": self.named}, self.timeout_s)
                _Batch(self.zygote, specs, results, self.timeout_s, progress).follow()
        except Interrupted as stop:
            results += [_not_run(spec, stop.name) for spec in specs[len(results):]]
        return results

    def close(self):
        self.zygote.close(kill=True)


class _Batch:
    """One runner's lines, followed until it ends."""

    def __init__(self, zygote, specs, results, timeout_s, progress):
        self.zygote, self.specs, self.results = zygote, specs, results
        self.timeout_s, self.progress = timeout_s, progress
        self.running = self.call = None
        self.started = time.monotonic()

    def follow(self):
        while True:
            event = self.zygote.next_event(self.timeout_s)
            if event == "timeout":
                self.zygote.end_runner()
                return self._charge(f"did not return within {self.timeout_s:g} s", hung=True)
            if event[0] == "garbled":
                self.zygote.end_runner()
                return self._charge(f"wrote a line that is not the profile's on its channel "
                                    f"({event[1]!r})")
            if event[0] == "ended":
                if self.running is None and len(self.results) == len(self.specs):
                    return None
                return self._charge(f"ended the process ({event[1] or 'exit status 0'})")
            self._take(*event)

    def _take(self, kind, payload):
        if kind == "X":
            raise channel.error_of(payload)
        if kind == "S":
            self.running, self.call, self.started = payload, None, time.monotonic()
        elif kind == "C":
            self.call = payload["call"]
        elif kind == "D":
            self.call = None
        elif kind == "R":
            self._add(payload)
            self.running = None

    def _add(self, record):
        self.results.append(record)
        if self.progress:
            self.progress(record)

    def _charge(self, what, hung=False):
        """The running case crashed or hung: its record, and where it was
        making the cell's array, the records of the rest of the cell."""
        if self.running is None:  # between cases: a finalizer of the library's
            self.running = len(self.results)
        spec = self.specs[self.running]
        making = self.call is not None and self.call.startswith(_run.MAKING)
        charged = [spec] + ([later for later in self.specs[self.running + 1:]
                             if (later["device"], later["cell"]) == (spec["device"], spec["cell"])]
                            if making else [])
        message = (f"{self.call or 'the library'} {what}; only the runner process ended, and "
                   "the next case runs in a new one")
        rule = "DLP-PLUGIN-HANG" if hung else "DLP-PLUGIN-CRASH"
        for charged_spec in charged:
            self._add(dict(charged_spec, memory=None, outcome="hang" if hung else "crash",
                           status="fail", reason=message, exception="", emitted=None, notes=[],
                           findings=[{"rule_id": rule, "severity": "error",
                                      "field": "the array" if making else "__dlpack__",
                                      "message": message}],
                           duration_ms=round((time.monotonic() - self.started) * 1000, 3)))


def _not_run(spec, signal_name):
    return dict(spec, memory=None, outcome=None, status="not_run", reason="", exception="",
                findings=[], emitted=None, notes=[], interrupted_by=signal_name,
                message=f"not run: the run was interrupted by {signal_name}")
