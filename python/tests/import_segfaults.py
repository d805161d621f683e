"""A module whose import kills the interpreter with SIGSEGV."""
import ctypes

ctypes.string_at(0)
