// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl pdc show" prints of a PDC: its field list, declared once for
// the text and the JSON output (see print.h).
#ifndef RUE_RUECTL_PDC_FIELDS_H_
#define RUE_RUECTL_PDC_FIELDS_H_

#include "ruectl/pdc.h"
#include "ruectl/print.h"

namespace rue::cli {

Record PdcRecord(const Pdc& pdc);

}  // namespace rue::cli

#endif  // RUE_RUECTL_PDC_FIELDS_H_
