// Writes an output file (a report, JUnit XML, a failures list, a capsule) the
// way cp and install users expect: a regular file, or a path that does not
// exist yet, is replaced atomically (readers see the old content or the new,
// never half, and a failed write leaves the old file as it was); a character
// device or a FIFO (/dev/null, /dev/stdout into a pipe) is written in place;
// anything else is refused. A symbolic link is followed, never replaced,
// and only where the kernel's protected_symlinks rule would follow it: a
// link another user planted in a sticky, world-writable directory (/tmp) is
// refused.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace dlpack_usm {

// Where the bytes of one output go, decided before anything is written.
struct OutputTarget {
  enum class Kind { standard_output, replace_atomically, write_in_place };
  Kind kind = Kind::standard_output;
  std::filesystem::path path;  // symbolic links resolved; empty for stdout
};

// "-" is stdout. Throws Error(usage) for a directory, socket, block device,
// a FIFO nobody reads or a link protected_symlinks forbids, and
// Error(environment) for a directory that is not writable. `option` names the path in messages
// ("--report").
OutputTarget resolve_output(const std::filesystem::path& path, std::string_view option = {});

// Throws Error(usage) when two options name the same file, or more than one
// names stdout. Each entry: option name, path (empty: not given).
void require_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& option_paths);

// A file a command reads, and what it is to the command ("the --baseline
// file", "one of the reports to merge"), as refusals name it.
struct NamedInput {
  std::string option;
  std::string path;
};

// Throws Error(usage) when the output `path` of `option` is the very file
// (same device and inode, whatever links or spellings name it) one of
// `inputs` names: writing it would replace what the command reads. `hint`
// is the message's "what to do". An output that does not exist yet is no
// input.
void refuse_output_among_inputs(std::string_view option, const std::string& path,
                                const std::vector<NamedInput>& inputs, std::string_view hint);

// Throws Error(usage) as resolve_output does, and Error(environment) naming
// the path when it cannot be written (a write error, a full disk); the old
// file is then left intact.
void write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           std::string_view option = {});

// Adds `content` at the end of what `path` holds, as each writer of GitHub's
// $GITHUB_STEP_SUMMARY is expected to: a regular file is opened with
// O_APPEND, as the shell's >> does (its mode, owner, links and inode kept, a
// bind-mounted file included, and concurrent writers lose nothing of each
// other's); a new path is created; standard output, a character device or a
// FIFO is written as write_file_atomically writes it. Throws what
// write_file_atomically throws.
void append_file_atomically(const std::filesystem::path& path, std::string_view content,
                            std::string_view option = {});

}  // namespace dlpack_usm
