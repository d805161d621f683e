"""The producer side of a library's profile, observed: the cell's array made
through the library's array API namespace (_cells), __dlpack__ asked one
request (_requests) and the answer judged (_judge, _run). The worker of the
tool's runner (dlpack_usm._worker) runs one such case at a time."""
