// SPDX-License-Identifier: GPL-2.0
//
// The "pdc" object: ruectl pdc { show [DEV] | help }.
#ifndef RUE_RUECTL_PDC_CMD_H_
#define RUE_RUECTL_PDC_CMD_H_

#include "ruectl/command.h"

namespace rue::cli {

nl::Status RunPdc(Context& context, Args& args);

}  // namespace rue::cli

#endif  // RUE_RUECTL_PDC_CMD_H_
