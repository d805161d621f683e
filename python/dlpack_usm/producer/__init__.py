"""What checks a producer: an object's __dlpack__ asked every way a
consumer may ask it, the capsules it gives read through the bridge and
judged by the tool's rules (check, inspect, capture); the command line runs
the same steps, one case each, in the tool's workers (dlpack_usm._worker)."""

from ._check import check, check_report
from ._inspect import DEFAULT_MAX_VERSION, Inspection, capture, inspect

__all__ = ["DEFAULT_MAX_VERSION", "Inspection", "capture", "check", "check_report", "inspect"]
