// SPDX-License-Identifier: GPL-2.0
//
// The "uet" object: ruectl uet { stats [DEV] | help }.
#ifndef RUE_RUECTL_UET_CMD_H_
#define RUE_RUECTL_UET_CMD_H_

#include "ruectl/command.h"

namespace rue::cli {

nl::Status RunUet(Context& context, Args& args);

}  // namespace rue::cli

#endif  // RUE_RUECTL_UET_CMD_H_
