"""A request of a producer profile, as its case spec gives it
(src/suite/cases/python/python_profile_cells.cpp plans them): the axis and
value the matrix shows, and __dlpack__'s keywords, "own" standing for the
array's own device."""

from dataclasses import dataclass

from ..producer import _copy_oracle


@dataclass(frozen=True)
class Request:
    axis: str  # "max_version", "dl_device", "copy", "stream"
    value: str  # "None", "1.3", "kDLCPU:0 copy=False", "True", "-1"
    asked: dict  # the spec's keywords: {"max_version": [1, 3], "dl_device": "own", ...}

    @property
    def names_own_device(self):
        """Whether the keywords need the array's own device: "own", or
        "another" (a device other than its own)."""
        return self.asked.get("dl_device") in ("own", "another")

    @property
    def is_oracle_row(self):
        """Whether the copy oracle shows the answer (copy or dl_device asked)."""
        return "copy" in self.asked or "dl_device" in self.asked

    def keywords(self, own):
        """__dlpack__'s keywords; `own` is the array's (device_type, device_id)."""
        found = {}
        for name, value in self.asked.items():
            if name == "dl_device" and value == "another":
                found[name] = _copy_oracle.another_device(own)
            elif name == "dl_device":
                found[name] = tuple(own) if value == "own" else tuple(value)
            elif name == "max_version":
                found[name] = tuple(value)
            else:
                found[name] = value
        return found


def request_of(spec):
    """The Request a case spec's "request" describes."""
    return Request(spec["axis"], spec["value"], dict(spec["keywords"]))
