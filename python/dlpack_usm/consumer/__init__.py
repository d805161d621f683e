"""A consumer under test, observed: one cell of the consumer matrix offered
through a producer object that follows the Python protocol (_offered_producer),
the consumer called on it, what it returned read back (_readback), and the
stream a CUDA consumer passes (_cuda_stream). The worker of the tool's
runner (dlpack_usm._worker) runs one such case at a time; the verdict is
the core's consumer model, asked through the bridge."""
