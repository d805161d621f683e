"""A module whose import ends the process with exit status 0."""
import os

os._exit(0)
