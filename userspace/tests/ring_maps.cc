// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/ring_maps.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace rue::test {

std::vector<Mapping> UverbsMappings() {
  std::vector<Mapping> out;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find("/dev/infiniband/uverbs") == std::string::npos) continue;
    // "start-end perms offset dev inode path", addresses in hex
    std::istringstream s(line);
    uintptr_t start = 0, end = 0;
    char dash = 0;
    s >> std::hex >> start >> dash >> end;
    if (s && dash == '-' && end > start) out.push_back({start, end - start});
  }
  return out;
}

rue_ring_hdr* FindRing(const std::vector<Mapping>& before,
                       const std::vector<Mapping>& after, uint32_t prod,
                       uint64_t wr_id) {
  static_assert(offsetof(rue_sqe, wr_id) == 0 && offsetof(rue_rqe, wr_id) == 0);
  for (const Mapping& m : after) {
    if (std::find(before.begin(), before.end(), m) != before.end()) continue;
    if (m.length < RUE_RING_DATA_OFFSET + sizeof(uint64_t)) continue;
    auto* hdr = reinterpret_cast<rue_ring_hdr*>(m.start);
    uint64_t first;
    memcpy(&first,
           reinterpret_cast<const uint8_t*>(m.start) + RUE_RING_DATA_OFFSET,
           sizeof(first));
    if (__atomic_load_n(&hdr->prod, __ATOMIC_ACQUIRE) == prod &&
        first == wr_id)
      return hdr;
  }
  return nullptr;
}

}  // namespace rue::test
