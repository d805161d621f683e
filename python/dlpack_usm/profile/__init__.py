"""A library's whole DLPack profile, both directions in one run: the
producer's (every cell of the matrix made through its array API namespace,
on every device it has, asked every way the standard lets a consumer ask)
and the consumer's (the consumer matrix offered to its from_dlpack, as
`consume` offers it). Both run contained: a crash or hang of the library is
the outcome of the case it happened in."""

import datetime
import time
from .._envelope import PROFILE_SCHEMA, envelope
from dataclasses import dataclass

from .._bridge import child, library
from .._bridge.errors import BridgeError
from ..consumer import _offers
from ..consumer import _plan as consumer_plan
from ..consumer import check_consumer
from ..consumer._lazy import LazyConsumer
from . import _cells, _library, _plan, _report, _requests
from ._runner import Profiler

__all__ = ["Profile", "profile_library"]


@dataclass
class Profile:
    """The profile report (`document`, schema dlpack-usm.profile-report/2)."""
    document: dict

    def _results(self):
        for direction in ("producer", "consumer"):
            yield from (self.document.get(direction) or {}).get("results", [])

    @property
    def passed(self):
        """No case failed, and every case ran."""
        return not any(result["status"] in ("fail", "not_run") for result in self._results())

    @property
    def interrupted(self):
        """The stop signal that left cases not run, or None."""
        return next((result.get("interrupted_by") for result in self._results()
                     if result["status"] == "not_run"), None)

    def text(self):
        return _report.text(self.document)


@dataclass
class Selection:
    """What the run covers: the directions, and the devices and cells of
    each direction (None: all)."""
    producer: bool = True
    consumer: bool = True
    devices: list = None
    cells: list = None
    # The library's devices by its own texts, for a namespace that cannot
    # list them (--library-device); None: its inspection API's.
    library_devices: list = None


def _from_dlpack(module):
    """The namespace's from_dlpack, found in the consumer's zygote."""
    def find():
        function = getattr(_library.import_namespace(module), "from_dlpack", None)
        if not callable(function):
            raise BridgeError(f"{module} has no from_dlpack()",
                              "profile it with --producer-only")
        return function
    return find


def _unknown(kind, asked, known, hint_kind):
    """BridgeError (usage) for the names of `asked` that are not in `known`."""
    unknown = [name for name in asked or () if name not in known]
    if unknown:
        raise BridgeError(f"no {kind} named {', '.join(unknown)}",
                          f"the {hint_kind} here: {', '.join(known)}")


def _kept(asked, known):
    """The names of `asked` in `known` (all of `known` where nothing was asked)."""
    return None if asked is None else [name for name in asked if name in known]


def _producer(profiler, selection, devices, module, progress):
    """The producer's section: the cases on the chosen devices and cells."""
    chosen = [device for device in devices if device["dlpack_device"] is not None and
              (selection.devices is None or device["name"] in selection.devices)]
    # The reference array is always asked: the request axes are its answers.
    cells = _kept(selection.cells, _plan.cell_names())
    if cells is not None:
        cells = [] if not cells else list(dict.fromkeys([_cells.REFERENCE] + cells))
    results = profiler.run(chosen, cells, module, progress) if cells != [] else []
    return {"devices": devices,
            "cells": [{"name": cell.name, "axis": cell.axis, "value": cell.value,
                       "made_by": cell.description} for cell in _cells.cells()],
            "requests": [{"id": request.id, "axis": request.axis, "value": request.value}
                         for request in _requests.REQUESTS],
            "summary": _report.summary(results), "results": results,
            "profile": _report.producer_profile(results, module)}


def _check_selection(selection, matrix, devices):
    """BridgeError (usage) for a --device or --cell neither direction has."""
    device_names, cell_names = [], []
    if selection.consumer:
        device_names += consumer_plan.device_names(matrix)
        cell_names += [cell["name"] for cell in matrix["cells"]]
    if selection.producer:
        device_names += [device["name"] for device in devices if device["dlpack_device"]]
        cell_names += _plan.cell_names()
    _unknown("device", selection.devices, list(dict.fromkeys(device_names)), "devices")
    _unknown("cell", selection.cells, list(dict.fromkeys(cell_names)), "cells")


def _consumer(module, selection, matrix, timeout_s, progress):
    """The consumer's section, or None where the selection leaves no case."""
    devices = _kept(selection.devices, consumer_plan.device_names(matrix))
    cells = _kept(selection.cells, [cell["name"] for cell in matrix["cells"]])
    if devices == [] or cells == []:
        return None
    found = check_consumer(LazyConsumer(_from_dlpack(module)), devices=devices, cells=cells,
                           timeout_s=timeout_s, name=f"{module}.from_dlpack",
                           progress=progress)
    body = {key: value for key, value in found.to_json().items()
            if key not in ("schema", "tool", "version", "command_line")}
    body["profile"] = _report.consumer_profile(found, module)
    return body


def _devices(matrix, producer_devices, results):
    """The devices of both directions, by name: the consumer matrix's (cpu
    and the USM root devices) and the library's, with what it exported."""
    found = [{"name": "cpu", "memory": ["cpu"]}] + [
        {"name": device["name"], "device_id": device["device_id"],
         "memory": [f"{kind}-usm" for kind in device["kinds"]]} for device in matrix["devices"]]
    by_name = {device["name"]: device for device in found}
    for device in producer_devices:
        if device["dlpack_device"] is None:
            continue  # no array could be made there: the producer's section says why
        entry = by_name.get(device["name"])
        if entry is None:
            entry = by_name[device["name"]] = {"name": device["name"], "memory": []}
            found.append(entry)
        entry.update(library_device=device["library_device"], aliases=device["aliases"])
        for memory in {r["memory"] for r in results if r["device"] == device["name"]} - {None}:
            if memory not in entry["memory"]:
                entry["memory"].append(memory)
    return found


def profile_library(module, selection=None, timeout_s=child.TIMEOUT_S, label=None,
                    command_line=None, progress=None):
    """The Profile of the library whose array API namespace is `module`
    ("numpy", "jax.numpy"). Raises BridgeError for a module that does not
    import (2), an unknown device or cell (2), or no runtime (3)."""
    selection = selection or Selection()
    started_at = datetime.datetime.now(datetime.timezone.utc)
    started = time.monotonic()
    matrix = child.in_child(_offers.matrix, timeout_s)
    profiler = Profiler(module, timeout_s, selection.library_devices)
    try:
        devices = _plan.profiled_devices(profiler.discover(), matrix["devices"]) \
            if selection.producer else []
        _check_selection(selection, matrix, devices)
        producer = _producer(profiler, selection, devices, module, progress) \
            if selection.producer else None
    finally:
        profiler.close()
    # A stop signal during the producer's cases leaves the consumer's unrun.
    stopped = producer is not None and _report.interrupted(producer["results"])
    consumer = _consumer(module, selection, matrix, timeout_s, progress) \
        if selection.consumer and not stopped else None
    finished_at = datetime.datetime.now(datetime.timezone.utc)
    document = {**envelope(PROFILE_SCHEMA),
                "library": profiler.description, "started_at": started_at.isoformat(),
                "finished_at": finished_at.isoformat(),
                "duration_ms": round((time.monotonic() - started) * 1000, 3),
                "command_line": command_line or [], "machine": {"label": label or ""},
                "runtime": matrix["runtime"],
                "devices": _devices(matrix, devices, producer["results"] if producer else [])}
    for name, section in (("producer", producer), ("consumer", consumer)):
        if section is not None:
            document[name] = section
    return Profile(document)
