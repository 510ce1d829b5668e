// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The kernel's rings as a process sees them: librue maps each ring of a
// QP or CQ from the uverbs file (rue-abi.h), and the mappings show in
// /proc/self/maps.  A test that plays the hostile owner of a ring finds
// it there, without librue's help, and writes to it as any code of the
// process could.
#ifndef RUE_TESTS_RING_MAPS_H_
#define RUE_TESTS_RING_MAPS_H_

#include <rdma/rue-abi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rue::test {

struct Mapping {
  uintptr_t start = 0;
  size_t length = 0;

  bool operator==(const Mapping&) const = default;
};

// The mappings of /dev/infiniband/uverbs* in this process.
std::vector<Mapping> UverbsMappings();

// Among the mappings in @after but not in @before, the work queue ring
// (SQ, RQ or SRQ: their WQEs start with the wr_id) whose producer index
// is @prod and whose first slot holds a WQE with @wr_id; nullptr if there
// is none.
rue_ring_hdr* FindRing(const std::vector<Mapping>& before,
                           const std::vector<Mapping>& after, uint32_t prod,
                           uint64_t wr_id);

}  // namespace rue::test

#endif  // RUE_TESTS_RING_MAPS_H_
