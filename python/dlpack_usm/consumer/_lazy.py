"""A consumer found on first use: in the child processes that run the cases
(their zygote finds it once, before it forks them), so that the command's
own process never imports the consumer's library (JAX and torch start
threads a fork would leave behind; the zygote only imports, it never runs
the consumer)."""

from .._bridge.errors import BridgeError
from .._expression import evaluate


class LazyConsumer:
    """The callable `find()` gives, found on first use."""

    def __init__(self, find):
        self.find = find
        self._function = None

    def prepare(self):
        """Finds the consumer (importing its library): the zygote of the case
        runners does it once, before it forks them."""
        if self._function is None:
            self._function = self.find()

    def __call__(self, array):
        self.prepare()
        return self._function(array)


def consumer_of(expr):
    """The callable the Python expression EXPR gives; BridgeError where it
    gives something else."""
    consumer = evaluate(expr)
    if not callable(consumer):
        raise BridgeError(f"EXPR gives {type(consumer).__name__}, not a callable consumer",
                          "name a function that takes an array, e.g. numpy.from_dlpack")
    return consumer
