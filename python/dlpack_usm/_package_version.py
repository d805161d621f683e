"""The version a report names for an imported package."""

import sys


def package_version(name):
    """The version of the top-level package `name`: its __version__, else
    that of its distribution (mlx keeps __version__ in mlx.core only), else
    "unknown"."""
    version = getattr(sys.modules.get(name), "__version__", None)
    if version:
        return str(version)
    try:
        from importlib import metadata
        return metadata.version(name)
    except Exception:  # noqa: BLE001 - no distribution of that name: unknown
        return "unknown"
