// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rue_verbs_test: the systematic verbs tests (RC and UD data path, error
// paths, CQs, QP attributes) against two rue devices whose netdevs are
// connected (selftests/rue_verbs.sh builds the topology).
//
//   rue_verbs_test [--tap] [--dev-a=NAME] [--dev-b=NAME] [--ip4-a=ADDR]
//                  [--ip4-b=ADDR] [--ip6-a=ADDR] [--ip6-b=ADDR]
//                  [gtest flags]
//
// Exit status: 0 all passed, 1 some failed, 4 the devices are missing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "tests/tap_listener.h"
#include "tests/verbs.h"

namespace {

constexpr int kExitSkip = 4;

bool Flag(std::string_view arg, std::string_view name, std::string* value) {
  if (arg.substr(0, name.size()) != name) return false;
  if (arg.size() == name.size() || arg[name.size()] != '=') return false;
  *value = std::string(arg.substr(name.size() + 1));
  return true;
}

void Usage() {
  fprintf(stderr,
          "usage: rue_verbs_test [--tap] [--dev-a=NAME] [--dev-b=NAME]\n"
          "       [--ip4-a=ADDR] [--ip4-b=ADDR] [--ip6-a=ADDR] [--ip6-b=ADDR]\n"
          "       [gtest flags]\n");
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);

  rue::test::Config config;
  bool tap = false;
  for (int i = 1; i < argc; i++) {
    std::string_view arg = argv[i];
    if (arg == "--tap") {
      tap = true;
    } else if (!Flag(arg, "--dev-a", &config.dev_a) &&
               !Flag(arg, "--dev-b", &config.dev_b) &&
               !Flag(arg, "--ip4-a", &config.ip4_a) &&
               !Flag(arg, "--ip4-b", &config.ip4_b) &&
               !Flag(arg, "--ip6-a", &config.ip6_a) &&
               !Flag(arg, "--ip6-b", &config.ip6_b)) {
      fprintf(stderr, "rue_verbs_test: unknown argument %s\n", argv[i]);
      Usage();
      return 2;
    }
  }

  if (tap) {
    ::testing::TestEventListeners& listeners =
        ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new rue::test::TapListener(stdout));
  }

  // Listing needs no devices.
  if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();

  if (auto why = rue::test::OpenDevices(config)) {
    if (tap) {
      printf("TAP version 13\n1..0 # SKIP %s\n", why->c_str());
    } else {
      fprintf(stderr, "rue_verbs_test: %s\n", why->c_str());
    }
    return kExitSkip;
  }
  int ret = RUN_ALL_TESTS();
  rue::test::CloseDevices();
  return ret;
}
