// SPDX-License-Identifier: GPL-2.0
#include "ruectl/match.h"

#include <cerrno>
#include <string>
#include <vector>

namespace rue::cli {
namespace {

std::string Quoted(std::string_view word) {
  return "\"" + std::string(word) + "\"";
}

nl::Error Ambiguous(std::span<const std::string_view> names,
                    const std::vector<size_t>& hits, std::string_view word,
                    std::string_view what) {
  std::string message =
      "ambiguous " + std::string(what) + " " + Quoted(word) + ":";
  for (size_t i = 0; i < hits.size(); ++i)
    message += (i ? ", " : " ") + std::string(names[hits[i]]);
  return nl::Error{EINVAL, message};
}

}  // namespace

nl::Result<size_t> MatchName(std::span<const std::string_view> names,
                             std::string_view word, std::string_view what) {
  std::vector<size_t> hits;
  for (size_t i = 0; i < names.size() && !word.empty(); ++i) {
    if (names[i] == word) return i;
    if (names[i].starts_with(word)) hits.push_back(i);
  }
  if (hits.size() == 1) return hits[0];
  if (hits.size() > 1) return Ambiguous(names, hits, word, what);
  return nl::Error{EINVAL, "unknown " + std::string(what) + " " + Quoted(word)};
}

}  // namespace rue::cli
