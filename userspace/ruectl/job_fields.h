// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl job show" prints of a job: its field list, declared once
// for the text and the JSON output (see print.h).
#ifndef RUE_RUECTL_JOB_FIELDS_H_
#define RUE_RUECTL_JOB_FIELDS_H_

#include "ruectl/job.h"
#include "ruectl/print.h"

namespace rue::cli {

Record JobRecord(const Job& job);

}  // namespace rue::cli

#endif  // RUE_RUECTL_JOB_FIELDS_H_
