// SPDX-License-Identifier: GPL-2.0
//
// The "qp" object: ruectl qp { show [DEV] | help }.
#ifndef RUE_RUECTL_QP_CMD_H_
#define RUE_RUECTL_QP_CMD_H_

#include "ruectl/command.h"

namespace rue::cli {

nl::Status RunQp(Context& context, Args& args);

}  // namespace rue::cli

#endif  // RUE_RUECTL_QP_CMD_H_
