// SPDX-License-Identifier: GPL-2.0
//
// The "job" object: ruectl job { show [DEV [ID]] | add DEV ID [uid U]
// [gid G] | del DEV ID | help }.
#ifndef RUE_RUECTL_JOB_CMD_H_
#define RUE_RUECTL_JOB_CMD_H_

#include "ruectl/command.h"

namespace rue::cli {

nl::Status RunJob(Context& context, Args& args);

}  // namespace rue::cli

#endif  // RUE_RUECTL_JOB_CMD_H_
