// SPDX-License-Identifier: GPL-2.0
//
// Args: the words of the command line not consumed yet, taken from the
// front as the grammar OBJECT COMMAND ARGS... is walked.
#ifndef RUE_RUECTL_ARGS_H_
#define RUE_RUECTL_ARGS_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "nl/result.h"

namespace rue::cli {

class Args {
 public:
  explicit Args(std::vector<std::string_view> words)
      : words_(std::move(words)) {}

  bool empty() const { return next_ == words_.size(); }
  // The next word ("" when none is left), without taking it.
  std::string_view Peek() const;
  // Takes the next word ("" when none is left).
  std::string_view Next();
  // Takes the next word; EINVAL "missing WHAT" when none is left.
  nl::Result<std::string_view> Require(std::string_view what);
  // EINVAL "unexpected argument" if any word is left.
  nl::Status ExpectEnd() const;

 private:
  std::vector<std::string_view> words_;
  size_t next_ = 0;
};

}  // namespace rue::cli

#endif  // RUE_RUECTL_ARGS_H_
