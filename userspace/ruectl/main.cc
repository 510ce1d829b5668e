// SPDX-License-Identifier: GPL-2.0
//
// ruectl: configuration and state of rue devices (see ruectl(8)).
#include <iostream>

#include "ruectl/netlink_backend.h"
#include "ruectl/ruectl.h"

int main(int argc, char* argv[]) {
  rue::cli::NetlinkBackend backend;
  return rue::cli::Run(argc, argv, std::cout, std::cerr, backend);
}
