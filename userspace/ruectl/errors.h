// SPDX-License-Identifier: GPL-2.0
//
// What a failed request means to the user, where the kernel's errno alone
// would not say it.
#ifndef RUE_RUECTL_ERRORS_H_
#define RUE_RUECTL_ERRORS_H_

#include <optional>
#include <string_view>

#include "nl/result.h"

namespace rue::cli {

// `error` from a request about `device` (nullopt: about every device).
// ENODEV is `device "NAME" not found`; EOPNOTSUPP without a message, the
// answer of a module that predates the request, says the module is too
// old; anything else is passed on as it is.
nl::Error RequestError(const nl::Error& error,
                       std::optional<std::string_view> device);

}  // namespace rue::cli

#endif  // RUE_RUECTL_ERRORS_H_
