// SPDX-License-Identifier: GPL-2.0
//
// iproute2's way with object and command names: a word selects the name
// it equals, or else the only name it is a prefix of ("d" for "dev").
#ifndef RUE_RUECTL_MATCH_H_
#define RUE_RUECTL_MATCH_H_

#include <cstddef>
#include <span>
#include <string_view>

#include "nl/result.h"

namespace rue::cli {

// The index in `names` that `word` selects.  EINVAL otherwise, with
// `unknown WHAT "word"` or `ambiguous WHAT "word": name, name`.
nl::Result<size_t> MatchName(std::span<const std::string_view> names,
                             std::string_view word, std::string_view what);

}  // namespace rue::cli

#endif  // RUE_RUECTL_MATCH_H_
