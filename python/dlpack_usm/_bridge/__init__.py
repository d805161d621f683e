"""What both checks stand on: libdlpack_usm loaded through ctypes (library),
the package's errors (errors), PyCapsules (capsules), the bridge's JSON form
of a tensor (tensor_json), and the child processes that code under test runs
in (channel, zygote, reaper, interrupts)."""
