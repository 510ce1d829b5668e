// SPDX-License-Identifier: GPL-2.0
#include "nl/result.h"

#include <cerrno>
#include <cstring>

namespace rue::nl {

std::string Error::ToString() const {
  if (!message.empty()) return message;
  return std::strerror(code);
}

Error SystemError(const std::string& what) {
  int code = errno;
  return Error{code, what + ": " + std::strerror(code)};
}

}  // namespace rue::nl
