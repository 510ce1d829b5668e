// SPDX-License-Identifier: GPL-2.0
#include "ruectl/errors.h"

#include <cerrno>
#include <string>

namespace rue::cli {

nl::Error RequestError(const nl::Error& error,
                       std::optional<std::string_view> device) {
  if (error.code == ENODEV && device)
    return nl::Error{ENODEV,
                     "device \"" + std::string(*device) + "\" not found"};
  // genetlink's answer to a command the family does not have.
  if (error.code == EOPNOTSUPP && error.message.empty())
    return nl::Error{EOPNOTSUPP,
                     "rue kernel module too old for this command; load a "
                     "newer one"};
  return error;
}

}  // namespace rue::cli
