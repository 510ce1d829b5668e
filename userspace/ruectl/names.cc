// SPDX-License-Identifier: GPL-2.0
#include "ruectl/names.h"

#include <linux/rue_netlink.h>
#include <rdma/rue-abi.h>

#include <cstdint>
#include <cstdio>
#include <span>

namespace rue::cli {
namespace {

constexpr std::string_view kUnknown = "UNKNOWN";

// Indexed by value; an empty entry is a value with no name.
constexpr std::string_view kPortStates[] = {
    "", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
};

constexpr std::string_view kPhysStates[] = {
    "",
    "SLEEP",
    "POLLING",
    "DISABLED",
    "PORT_CONFIGURATION_TRAINING",
    "LINK_UP",
    "LINK_ERROR_RECOVERY",
    "PHY_TEST",
};

constexpr std::string_view kGidTypes[] = {"IB", "RoCEv1", "RoCEv2"};

// Value 7 is unused.
constexpr std::string_view kQpTypes[] = {
    "SMI",           "GSI", "RC",         "UC",      "UD",      "RAW_IPV6",
    "RAW_ETHERTYPE", "",    "RAW_PACKET", "XRC_INI", "XRC_TGT",
};

constexpr std::string_view kQpStates[] = {
    "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR",
};
constexpr std::string_view kPdcRoles[] = {"initiator", "target"};
static_assert(RUE_PDC_ROLE_INITIATOR == 0 && RUE_PDC_ROLE_TARGET == 1);

constexpr std::string_view kUetModes[] = {"RUD", "ROD"};
static_assert(RUE_UET_MODE_RUD == 0 && RUE_UET_MODE_ROD == 1);

static_assert(RUE_GID_TYPE_IB == 0 && RUE_GID_TYPE_ROCE_V1 == 1 &&
              RUE_GID_TYPE_ROCE_V2 == 2);

std::string_view Lookup(std::span<const std::string_view> names,
                        unsigned value) {
  if (value >= names.size() || names[value].empty()) return kUnknown;
  return names[value];
}

struct ZeroRun {
  size_t start = SIZE_MAX;
  size_t length = 0;
};

// RFC 5952: "::" stands for the longest run of two or more zero words,
// the first one on a tie.
ZeroRun LongestZeroRun(const std::array<unsigned, 8>& words) {
  ZeroRun best;
  for (size_t i = 0; i < words.size();) {
    size_t j = i;
    while (j < words.size() && words[j] == 0) ++j;
    if (j - i >= 2 && j - i > best.length) best = ZeroRun{i, j - i};
    i = j == i ? i + 1 : j;
  }
  return best;
}

bool IsV4Mapped(const std::array<unsigned, 8>& words) {
  return words[0] == 0 && words[1] == 0 && words[2] == 0 && words[3] == 0 &&
         words[4] == 0 && words[5] == 0xffff;
}

std::string DottedQuad(const std::array<uint8_t, 16>& gid) {
  char text[sizeof("255.255.255.255")];
  std::snprintf(text, sizeof(text), "%u.%u.%u.%u", gid[12], gid[13], gid[14],
                gid[15]);
  return text;
}

}  // namespace

std::string_view PortStateName(uint8_t state) {
  return Lookup(kPortStates, state);
}

std::string_view PhysStateName(uint8_t state) {
  return Lookup(kPhysStates, state);
}

std::string_view GidTypeName(uint8_t type) { return Lookup(kGidTypes, type); }

std::string_view QpTypeName(uint8_t type) { return Lookup(kQpTypes, type); }

std::string_view QpStateName(uint8_t state) { return Lookup(kQpStates, state); }

std::string_view PdcRoleName(uint8_t role) { return Lookup(kPdcRoles, role); }

std::string_view UetModeName(uint8_t mode) { return Lookup(kUetModes, mode); }

std::string FormatGuid(uint64_t guid) {
  char text[sizeof("0000:0000:0000:0000")];
  std::snprintf(text, sizeof(text), "%04x:%04x:%04x:%04x",
                static_cast<unsigned>(guid >> 48) & 0xffff,
                static_cast<unsigned>(guid >> 32) & 0xffff,
                static_cast<unsigned>(guid >> 16) & 0xffff,
                static_cast<unsigned>(guid) & 0xffff);
  return text;
}

std::string FormatGid(const std::array<uint8_t, 16>& gid) {
  std::array<unsigned, 8> words;
  for (size_t i = 0; i < words.size(); ++i)
    words[i] = (gid[2 * i] << 8) | gid[2 * i + 1];
  if (IsV4Mapped(words)) return "::ffff:" + DottedQuad(gid);
  ZeroRun skip = LongestZeroRun(words);
  std::string text;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i == skip.start) {
      text += i == 0 ? "::" : ":";
      i += skip.length - 1;
      continue;
    }
    char hex[8];
    std::snprintf(hex, sizeof(hex), "%x", words[i]);
    text += hex;
    if (i + 1 < words.size()) text += ':';
  }
  return text;
}

}  // namespace rue::cli
