"""What both checks stand on: libdlpack_usm loaded through ctypes (library),
the package's errors (errors), PyCapsules (capsules), DLPack's numbers by
their names as the core holds them (dlpack), the bridge's JSON form of a
tensor (tensor_json), and the child processes that code under test runs
in: the one runner (child, with the one TIMEOUT_S), the lines a child sends
(channel), the zygote that forks the runners of a contained run (zygote,
reaper) and the stop signals that end a run (interrupts)."""
