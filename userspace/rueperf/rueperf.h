// SPDX-License-Identifier: GPL-2.0
//
// rueperf's entry point, main() without the process: parse, run the
// role, print.  Exit status 0 on success, 1 on any failure (a bad
// command line, a failed run, data that did not verify).
#ifndef RUE_RUEPERF_RUEPERF_H_
#define RUE_RUEPERF_RUEPERF_H_

#include <ostream>
#include <span>
#include <string_view>

namespace rue::perf {

int Run(std::span<const std::string_view> args, std::ostream& out,
        std::ostream& err);

}  // namespace rue::perf

#endif  // RUE_RUEPERF_RUEPERF_H_
