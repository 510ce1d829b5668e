// SPDX-License-Identifier: GPL-2.0
//
// The "cc" object:
// ruectl cc { show [DEV [prio P]] | set DEV [prio P] KEY VALUE... | help }.
#ifndef RUE_RUECTL_CC_CMD_H_
#define RUE_RUECTL_CC_CMD_H_

#include "ruectl/command.h"

namespace rue::cli {

nl::Status RunCc(Context& context, Args& args);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CC_CMD_H_
