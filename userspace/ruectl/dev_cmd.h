// SPDX-License-Identifier: GPL-2.0
//
// The "dev" object: ruectl dev { show [DEV] | help }.
#ifndef RUE_RUECTL_DEV_CMD_H_
#define RUE_RUECTL_DEV_CMD_H_

#include "ruectl/command.h"

namespace rue::cli {

nl::Status RunDev(Context& context, Args& args);

}  // namespace rue::cli

#endif  // RUE_RUECTL_DEV_CMD_H_
