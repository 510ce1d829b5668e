// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Verbs objects for the tests: RAII owners for every ibv object, the rue
// devices the suite runs on (opened once, with a thread that reads and
// acknowledges their asynchronous events), registered buffers, and the
// GID table lookups a connection needs.
#ifndef RUE_TESTS_VERBS_H_
#define RUE_TESTS_VERBS_H_

#include <gtest/gtest.h>
#include <infiniband/verbs.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace rue::test {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// ---------------------------------------------------------------------
// Owners.  A destroy that fails is a test failure: it means an object
// was still in use (a leak in the test, or a reference the driver kept).

struct PdDeleter {
  void operator()(ibv_pd* pd) const;
};
struct CqDeleter {
  void operator()(ibv_cq* cq) const;
};
struct QpDeleter {
  void operator()(ibv_qp* qp) const;
};
struct MrDeleter {
  void operator()(ibv_mr* mr) const;
};
struct AhDeleter {
  void operator()(ibv_ah* ah) const;
};
struct SrqDeleter {
  void operator()(ibv_srq* srq) const;
};
struct ChannelDeleter {
  void operator()(ibv_comp_channel* ch) const;
};

using Pd = std::unique_ptr<ibv_pd, PdDeleter>;
// A CQ with a completion channel reads and acknowledges the channel's
// pending events before it is destroyed (libibverbs waits for them).
using Cq = std::unique_ptr<ibv_cq, CqDeleter>;
using Qp = std::unique_ptr<ibv_qp, QpDeleter>;
using Mr = std::unique_ptr<ibv_mr, MrDeleter>;
using Ah = std::unique_ptr<ibv_ah, AhDeleter>;
using Srq = std::unique_ptr<ibv_srq, SrqDeleter>;
using Channel = std::unique_ptr<ibv_comp_channel, ChannelDeleter>;

// Page-aligned memory.
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(size_t size);
  Buffer(Buffer&&) = default;
  Buffer& operator=(Buffer&&) = default;

  uint8_t* data() const { return mem_.get(); }
  size_t size() const { return size_; }
  std::span<uint8_t> span() const { return {mem_.get(), size_}; }
  std::span<uint8_t> span(size_t off, size_t len) const {
    return {mem_.get() + off, len};
  }
  uint64_t addr(size_t off = 0) const {
    return reinterpret_cast<uintptr_t>(mem_.get() + off);
  }

 private:
  struct Free {
    void operator()(uint8_t* p) const;
  };
  std::unique_ptr<uint8_t, Free> mem_;
  size_t size_ = 0;
};

inline constexpr int kAllAccess =
    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
    IBV_ACCESS_REMOTE_ATOMIC;

// A buffer and its registration.
struct Region {
  Buffer buf;
  Mr mr;

  uint8_t* data(size_t off = 0) const { return buf.data() + off; }
  size_t size() const { return buf.size(); }
  uint64_t addr(size_t off = 0) const { return buf.addr(off); }
  uint32_t lkey() const { return mr->lkey; }
  uint32_t rkey() const { return mr->rkey; }
  ibv_sge sge(size_t off, uint32_t len) const {
    return {buf.addr(off), len, mr->lkey};
  }
};

// Registers @size bytes; a failed registration is a fatal test failure.
void MakeRegion(ibv_pd* pd, size_t size, int access, Region* out);

// ---------------------------------------------------------------------
// Devices

// The asynchronous events of one context, read by a thread that records
// and acknowledges each (an unacknowledged QP or CQ event would make its
// destroy wait forever).
class AsyncEvents {
 public:
  struct Record {
    ibv_event_type type;
    const void* element;  // the ibv_qp/ibv_cq/ibv_srq, or nullptr
  };

  explicit AsyncEvents(ibv_context* ctx);
  ~AsyncEvents();
  AsyncEvents(const AsyncEvents&) = delete;
  AsyncEvents& operator=(const AsyncEvents&) = delete;

  // Events seen so far; pass it to Wait() to look only at later ones.
  size_t Mark();
  // Whether an event @type about @element arrived after @mark.
  bool Wait(size_t mark, ibv_event_type type, const void* element,
            milliseconds timeout);
  std::vector<Record> Since(size_t mark);

 private:
  void Run();

  ibv_context* ctx_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Record> events_;
  std::thread thread_;
};

// One rue device as the tests use it: port 1, its GIDs for the addresses
// the topology gave it.
struct Device {
  std::string name;
  ibv_context* ctx = nullptr;
  ibv_device_attr attr{};
  ibv_port_attr port{};
  std::optional<int> gid4;  // RoCEv2 GID index of the IPv4 address
  std::optional<int> gid6;  // of the IPv6 address
  std::string ip4, ip6;
  std::unique_ptr<AsyncEvents> events;

  ~Device();
  ibv_gid Gid(int index) const;
  // rue rather than the device it is tested against (rdma_rxe).
  bool IsRue() const { return attr.vendor_part_id == 0x7275; }
  // The port's active MTU in bytes, and as the enum.
  uint32_t MtuBytes() const;
  ibv_mtu ActiveMtu() const;
};

// What main() configures: the device names and their addresses.
struct Config {
  std::string dev_a = "rva";
  std::string dev_b = "rvb";
  std::string ip4_a = "10.5.0.1";
  std::string ip4_b = "10.5.0.2";
  std::string ip6_a = "fd00:5::1";
  std::string ip6_b = "fd00:5::2";
};

// Opens both devices (once); returns an explanation when one is missing.
std::optional<std::string> OpenDevices(const Config& config);
void CloseDevices();
Device& DevA();
Device& DevB();

// The index of the RoCEv2 GID holding @ip (IPv4 or IPv6 text) on port 1.
std::optional<int> FindGid(ibv_context* ctx, const std::string& ip);

// ---------------------------------------------------------------------
// Completions

std::string WcString(const ibv_wc& wc);

// Polls until @n completions arrived (more are left in the CQ).
::testing::AssertionResult PollCq(ibv_cq* cq, size_t n,
                                  std::vector<ibv_wc>* out,
                                  milliseconds timeout = milliseconds(5000));
// One completion, @out filled.
::testing::AssertionResult PollOne(ibv_cq* cq, ibv_wc* out,
                                   milliseconds timeout = milliseconds(5000));
// No completion shows up for @wait.
::testing::AssertionResult NoCompletion(ibv_cq* cq, milliseconds wait);

// Waits for a completion event on @ch (nonblocking fd + poll()); returns
// the CQ it names, acknowledged, or nullptr on timeout.
ibv_cq* WaitCqEvent(ibv_comp_channel* ch, milliseconds timeout);

// The QP's current state, or -1 if ibv_query_qp fails.
int QpState(ibv_qp* qp);
// Waits until the QP reaches @state (errors move a QP to ERR right
// around the time their completion appears).
::testing::AssertionResult QpReaches(ibv_qp* qp, ibv_qp_state state,
                                     milliseconds timeout = milliseconds(2000));

}  // namespace rue::test

#endif  // RUE_TESTS_VERBS_H_
