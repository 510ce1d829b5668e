// SPDX-License-Identifier: GPL-2.0
#include <iostream>
#include <string_view>
#include <vector>

#include "rueperf/rueperf.h"

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  return rue::perf::Run(args, std::cout, std::cerr);
}
