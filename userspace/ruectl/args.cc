// SPDX-License-Identifier: GPL-2.0
#include "ruectl/args.h"

#include <cerrno>
#include <string>

namespace rue::cli {

std::string_view Args::Peek() const {
  return empty() ? std::string_view() : words_[next_];
}

std::string_view Args::Next() {
  std::string_view word = Peek();
  if (!empty()) ++next_;
  return word;
}

nl::Result<std::string_view> Args::Require(std::string_view what) {
  if (empty()) return nl::Error{EINVAL, "missing " + std::string(what)};
  return Next();
}

nl::Status Args::ExpectEnd() const {
  if (empty()) return nl::Ok();
  return nl::Error{EINVAL,
                   "unexpected argument \"" + std::string(Peek()) + "\""};
}

}  // namespace rue::cli
