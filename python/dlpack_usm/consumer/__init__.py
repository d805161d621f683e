"""What checks a consumer: the consumer matrix of `dlpack-usm check
--consumer` offered to a Python callable such as numpy.from_dlpack, every
case contained and judged by the tool's one consumer model."""

from ._check import ConsumerCheck, check_consumer

__all__ = ["ConsumerCheck", "check_consumer"]
