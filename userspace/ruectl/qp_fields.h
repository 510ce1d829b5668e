// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl qp show" prints of a QP: its field list, declared once for
// the text and the JSON output (see print.h).
#ifndef RUE_RUECTL_QP_FIELDS_H_
#define RUE_RUECTL_QP_FIELDS_H_

#include "ruectl/print.h"
#include "ruectl/qp.h"

namespace rue::cli {

Record QpRecord(const Qp& qp);

}  // namespace rue::cli

#endif  // RUE_RUECTL_QP_FIELDS_H_
