"""What the package stands on: libdlpack_usm loaded through ctypes (library),
the package's errors (errors), PyCapsules (capsules), DLPack's numbers by
their names as the core holds them (dlpack), the bridge's JSON form of a
tensor (tensor_json), and a contained call: code under test run in a forked
child that answers on a channel of its own (child, channel), which the
consumer probe of a producer's check uses so that a consumer's crash is
never the producer's."""
