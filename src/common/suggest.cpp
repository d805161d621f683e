#include "common/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

#include <fmt/format.h>

namespace dlpack_usm {
namespace {

char folded(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// The optimal string alignment distance (Damerau-Levenshtein without
// repeated edits of one substring), case ignored.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  std::iota(d[0].begin(), d[0].end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = folded(a[i - 1]) == folded(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && folded(a[i - 1]) == folded(b[j - 2]) &&
          folded(a[i - 2]) == folded(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::vector<std::string> closest_names(std::string_view typed,
                                       const std::vector<std::string>& candidates,
                                       std::size_t limit) {
  // A third of the name may be wrong, at least two characters: "chek" and
  // "--repot" are found; "gpu" does not become "cpu:0".
  std::size_t allowed = std::max<std::size_t>(2, typed.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const std::string& candidate : candidates) {
    std::size_t distance = edit_distance(typed, candidate);
    if (distance <= allowed && distance < std::max(typed.size(), candidate.size())) {
      scored.emplace_back(distance, candidate);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (const auto& [distance, name] : scored) {
    if (names.size() == limit) break;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& candidates) {
  std::vector<std::string> names = closest_names(typed, candidates);
  if (names.empty()) return {};
  std::string list = fmt::format("'{}'", names.front());
  for (std::size_t i = 1; i < names.size(); ++i) {
    list += fmt::format("{}'{}'", i + 1 == names.size() ? " or " : ", ", names[i]);
  }
  return fmt::format(" (did you mean {}?)", list);
}

}  // namespace dlpack_usm
