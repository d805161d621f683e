// What `check --python-producer EXPR`, `--python-consumer EXPR` and
// `--python-library MODULE` put under test: a Python library, run by the
// one runner in Python workers (python_worker.hpp) as C plugins are run in
// the tool's own. Its cases are planned here in C++ (the consumer matrix,
// the producer's steps and cells); only the calls into the library and
// what they show are made in the interpreter.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlpack_usm::suite {

enum class PythonRole {
  producer,  // EXPR gives an object with __dlpack__: the protocol's checks
  consumer,  // EXPR gives a callable such as numpy.from_dlpack: the consumer matrix
  library,   // MODULE is an array API namespace: both directions (a profile)
  handoff,   // PRODUCER (EXPR or MODULE) handed to CONSUMER (EXPR or MODULE)
};

const char* to_string(PythonRole role);

// How the Python side is to run: the interpreter, and the folder holding
// the package `dlpack_usm` the workers import ("" where the interpreter
// finds it itself: a pip install).
struct PythonSetup {
  std::string interpreter;
  std::string package_dir;
};

struct PythonTarget {
  PythonRole role = PythonRole::consumer;
  std::string text;  // EXPR or MODULE, as given (a handoff's producer)
  // A handoff's consumer (EXPR or MODULE), and whether its cases try the
  // remedies too (handoff: yes; the pairwise matrix: the direct handoff).
  std::string consumer;
  bool remedies = false;
  // A handoff of a producer MODULE: every cell of its profile, or the
  // reference cell alone (handoff without --cell).
  bool every_cell = true;
  PythonSetup setup;
  // Producer: the max_version it is asked with, and whether a real
  // consumer takes a capsule at the end (the consumer probe).
  std::string max_version = "1.3";
  bool consumer_probe = true;
  int stream_attempts = 0;  // 0: the worker's default
  // Library: the directions profiled, and the library's devices by its
  // own texts where the namespace cannot list them (torch: "cuda:0").
  bool producer_side = true;
  bool consumer_side = true;
  std::vector<std::string> library_devices;

  // The first part of every case id of this target: its text, with
  // characters a glob or a path would read otherwise replaced, and a short
  // digest of the whole text where anything was replaced or cut. Ids stay
  // opaque: nothing reads them back.
  std::string label() const;
  // The worker key (CaseSpec::worker): one interpreter and library a worker.
  std::string worker_key() const;
  // What a worker reads of its target (the "target" of its input).
  nlohmann::json to_json() const;
  // The option that names it again, for repro lines and `check --list`.
  std::vector<std::string> arguments() const;
};

}  // namespace dlpack_usm::suite
