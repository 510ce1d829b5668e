// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ruedump: decode RoCEv2 and UET packets in a capture file (see
// ruedump(8)).  Run() is main() with its streams passed in, for tests.
#ifndef RUE_RUEDUMP_RUEDUMP_H_
#define RUE_RUEDUMP_RUEDUMP_H_

#include <ostream>

namespace rue::dump {

inline constexpr int kExitOk = 0;
// A bad command line, or a capture that cannot be read (to its end).
inline constexpr int kExitError = 1;
// --check found malformed packets or bad ICRCs.
inline constexpr int kExitCheckFailed = 2;

int Run(int argc, char* argv[], std::ostream& out, std::ostream& err);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_RUEDUMP_H_
