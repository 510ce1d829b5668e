// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ruedump: decode RoCEv2 and UET packets in a capture file (ruedump(8)).
#include <iostream>

#include "ruedump/ruedump.h"

int main(int argc, char* argv[]) {
  return rue::dump::Run(argc, argv, std::cout, std::cerr);
}
