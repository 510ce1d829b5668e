// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/verbs.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace rue::test {
namespace {

std::unique_ptr<Device> g_dev_a;
std::unique_ptr<Device> g_dev_b;

void SetNonBlocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0 && !(flags & O_NONBLOCK))
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

void ReportDestroy(const char* what, int ret) {
  if (ret) {
    ADD_FAILURE() << what << " failed: " << strerror(ret);
  }
}

// Back off gently while polling: the guest has two CPUs and the kernel
// side needs one of them to make progress.
class Backoff {
 public:
  void Wait() {
    if (++spins_ < 64) return;
    std::this_thread::sleep_for(
        std::chrono::microseconds(spins_ < 256 ? 10 : 100));
  }

 private:
  unsigned spins_ = 0;
};

}  // namespace

// ---------------------------------------------------------------------
// Owners

void PdDeleter::operator()(ibv_pd* pd) const {
  ReportDestroy("ibv_dealloc_pd", ibv_dealloc_pd(pd));
}

void CqDeleter::operator()(ibv_cq* cq) const {
  ibv_comp_channel* ch = cq->channel;
  if (ch) {
    // Every reported completion event must be acknowledged first.
    SetNonBlocking(ch->fd);
    ibv_cq* ev_cq;
    void* ev_ctx;
    while (ibv_get_cq_event(ch, &ev_cq, &ev_ctx) == 0)
      ibv_ack_cq_events(ev_cq, 1);
  }
  ReportDestroy("ibv_destroy_cq", ibv_destroy_cq(cq));
}

void QpDeleter::operator()(ibv_qp* qp) const {
  ReportDestroy("ibv_destroy_qp", ibv_destroy_qp(qp));
}

void SrqDeleter::operator()(ibv_srq* srq) const {
  ReportDestroy("ibv_destroy_srq", ibv_destroy_srq(srq));
}

void MrDeleter::operator()(ibv_mr* mr) const {
  ReportDestroy("ibv_dereg_mr", ibv_dereg_mr(mr));
}

void AhDeleter::operator()(ibv_ah* ah) const {
  ReportDestroy("ibv_destroy_ah", ibv_destroy_ah(ah));
}

void ChannelDeleter::operator()(ibv_comp_channel* ch) const {
  ReportDestroy("ibv_destroy_comp_channel", ibv_destroy_comp_channel(ch));
}

Buffer::Buffer(size_t size) : size_(size) {
  size_t bytes = (size + 4095) / 4096 * 4096;
  if (!bytes) bytes = 4096;
  mem_.reset(static_cast<uint8_t*>(std::aligned_alloc(4096, bytes)));
  if (mem_) memset(mem_.get(), 0, bytes);
}

void Buffer::Free::operator()(uint8_t* p) const { std::free(p); }

void MakeRegion(ibv_pd* pd, size_t size, int access, Region* out) {
  out->mr.reset();
  out->buf = Buffer(size);
  ASSERT_NE(out->buf.data(), nullptr)
      << "out of memory for " << size << " bytes";
  errno = 0;
  out->mr.reset(ibv_reg_mr(pd, out->buf.data(), size ? size : 1, access));
  ASSERT_NE(out->mr, nullptr) << "ibv_reg_mr(" << size << " bytes, access 0x"
                              << std::hex << access << "): " << strerror(errno);
}

// ---------------------------------------------------------------------
// Asynchronous events

AsyncEvents::AsyncEvents(ibv_context* ctx) : ctx_(ctx) {
  SetNonBlocking(ctx->async_fd);
  thread_ = std::thread([this] { Run(); });
}

AsyncEvents::~AsyncEvents() {
  stop_ = true;
  thread_.join();
}

void AsyncEvents::Run() {
  pollfd pfd = {ctx_->async_fd, POLLIN, 0};
  while (!stop_) {
    if (poll(&pfd, 1, 50) <= 0) continue;
    ibv_async_event ev;
    while (ibv_get_async_event(ctx_, &ev) == 0) {
      Record r = {ev.event_type, nullptr};
      switch (ev.event_type) {
        case IBV_EVENT_CQ_ERR:
          r.element = ev.element.cq;
          break;
        case IBV_EVENT_QP_FATAL:
        case IBV_EVENT_QP_REQ_ERR:
        case IBV_EVENT_QP_ACCESS_ERR:
        case IBV_EVENT_COMM_EST:
        case IBV_EVENT_SQ_DRAINED:
        case IBV_EVENT_PATH_MIG:
        case IBV_EVENT_PATH_MIG_ERR:
        case IBV_EVENT_QP_LAST_WQE_REACHED:
          r.element = ev.element.qp;
          break;
        case IBV_EVENT_SRQ_ERR:
        case IBV_EVENT_SRQ_LIMIT_REACHED:
          r.element = ev.element.srq;
          break;
        default:
          break;
      }
      ibv_ack_async_event(&ev);
      std::lock_guard<std::mutex> lock(mu_);
      events_.push_back(r);
      cv_.notify_all();
    }
  }
}

size_t AsyncEvents::Mark() {
  std::lock_guard<std::mutex> lock(mu_);
  return events_.size();
}

bool AsyncEvents::Wait(size_t mark, ibv_event_type type, const void* element,
                       milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [&] {
    for (size_t i = mark; i < events_.size(); i++)
      if (events_[i].type == type && events_[i].element == element) return true;
    return false;
  });
}

std::vector<AsyncEvents::Record> AsyncEvents::Since(size_t mark) {
  std::lock_guard<std::mutex> lock(mu_);
  if (mark >= events_.size()) return {};
  return {events_.begin() + static_cast<ptrdiff_t>(mark), events_.end()};
}

// ---------------------------------------------------------------------
// Devices

Device::~Device() {
  events.reset();
  if (ctx) ibv_close_device(ctx);
}

ibv_gid Device::Gid(int index) const {
  ibv_gid gid{};
  ibv_query_gid(ctx, 1, index, &gid);
  return gid;
}

uint32_t Device::MtuBytes() const { return 128u << port.active_mtu; }

ibv_mtu Device::ActiveMtu() const { return port.active_mtu; }

std::optional<int> FindGid(ibv_context* ctx, const std::string& ip) {
  ibv_gid want{};
  in_addr a4;
  if (inet_pton(AF_INET, ip.c_str(), &a4) == 1) {
    want.raw[10] = 0xff;
    want.raw[11] = 0xff;
    memcpy(&want.raw[12], &a4, 4);
  } else if (inet_pton(AF_INET6, ip.c_str(), want.raw) != 1) {
    return std::nullopt;
  }
  ibv_port_attr port;
  if (ibv_query_port(ctx, 1, &port)) return std::nullopt;
  for (int i = 0; i < port.gid_tbl_len; i++) {
    ibv_gid_entry e{};
    if (ibv_query_gid_ex(ctx, 1, i, &e, 0)) continue;
    if (e.gid_type == IBV_GID_TYPE_ROCE_V2 &&
        memcmp(e.gid.raw, want.raw, sizeof(want.raw)) == 0)
      return i;
  }
  return std::nullopt;
}

namespace {

std::optional<std::string> Open(const std::string& name, const std::string& ip4,
                                const std::string& ip6,
                                std::unique_ptr<Device>* out) {
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  if (!list) return "ibv_get_device_list: " + std::string(strerror(errno));
  ibv_context* ctx = nullptr;
  bool found = false;
  for (int i = 0; i < n; i++) {
    if (name == ibv_get_device_name(list[i])) {
      found = true;
      ctx = ibv_open_device(list[i]);
      break;
    }
  }
  int err = errno;
  ibv_free_device_list(list);
  if (!found) return "no RDMA device " + name;
  if (!ctx) return "ibv_open_device(" + name + "): " + strerror(err);

  auto dev = std::make_unique<Device>();
  dev->name = name;
  dev->ctx = ctx;
  dev->ip4 = ip4;
  dev->ip6 = ip6;
  if (ibv_query_device(ctx, &dev->attr))
    return "ibv_query_device(" + name + ") failed";
  if (ibv_query_port(ctx, 1, &dev->port))
    return "ibv_query_port(" + name + ") failed";
  dev->gid4 = FindGid(ctx, ip4);
  dev->gid6 = FindGid(ctx, ip6);
  if (!dev->gid4) return name + " has no RoCEv2 GID for " + ip4;
  dev->events = std::make_unique<AsyncEvents>(ctx);
  *out = std::move(dev);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> OpenDevices(const Config& config) {
  if (auto err = Open(config.dev_a, config.ip4_a, config.ip6_a, &g_dev_a))
    return err;
  if (auto err = Open(config.dev_b, config.ip4_b, config.ip6_b, &g_dev_b)) {
    g_dev_a.reset();
    return err;
  }
  return std::nullopt;
}

void CloseDevices() {
  g_dev_a.reset();
  g_dev_b.reset();
}

Device& DevA() { return *g_dev_a; }
Device& DevB() { return *g_dev_b; }

// ---------------------------------------------------------------------
// Completions

std::string WcString(const ibv_wc& wc) {
  std::ostringstream s;
  s << "{wr_id 0x" << std::hex << wc.wr_id << std::dec << ", status "
    << ibv_wc_status_str(wc.status) << " (" << wc.status << "), opcode "
    << wc.opcode << ", byte_len " << wc.byte_len << ", qp_num " << wc.qp_num
    << ", src_qp " << wc.src_qp << ", wc_flags 0x" << std::hex << wc.wc_flags
    << ", imm 0x" << wc.imm_data << std::dec << ", vendor_err " << wc.vendor_err
    << "}";
  return s.str();
}

::testing::AssertionResult PollCq(ibv_cq* cq, size_t n,
                                  std::vector<ibv_wc>* out,
                                  milliseconds timeout) {
  out->clear();
  out->reserve(n);
  auto start = Clock::now();
  auto deadline = start + timeout;
  Backoff backoff;
  while (out->size() < n) {
    ibv_wc wc[32];
    int want = static_cast<int>(std::min<size_t>(32, n - out->size()));
    int got = ibv_poll_cq(cq, want, wc);
    if (got < 0)
      return ::testing::AssertionFailure() << "ibv_poll_cq returned " << got;
    out->insert(out->end(), wc, wc + got);
    if (got) continue;
    if (Clock::now() > deadline) {
      auto r = ::testing::AssertionFailure();
      r << "got " << out->size() << " of " << n << " completions in "
        << timeout.count() << " ms";
      for (const ibv_wc& w : *out) r << "\n  " << WcString(w);
      return r;
    }
    backoff.Wait();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult PollOne(ibv_cq* cq, ibv_wc* out,
                                   milliseconds timeout) {
  std::vector<ibv_wc> wcs;
  auto r = PollCq(cq, 1, &wcs, timeout);
  if (r) *out = wcs[0];
  return r;
}

::testing::AssertionResult NoCompletion(ibv_cq* cq, milliseconds wait) {
  auto deadline = Clock::now() + wait;
  do {
    ibv_wc wc;
    int got = ibv_poll_cq(cq, 1, &wc);
    if (got < 0)
      return ::testing::AssertionFailure() << "ibv_poll_cq returned " << got;
    if (got)
      return ::testing::AssertionFailure()
             << "unexpected completion " << WcString(wc);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  } while (Clock::now() < deadline);
  return ::testing::AssertionSuccess();
}

ibv_cq* WaitCqEvent(ibv_comp_channel* ch, milliseconds timeout) {
  SetNonBlocking(ch->fd);
  auto deadline = Clock::now() + timeout;
  for (;;) {
    ibv_cq* cq;
    void* ctx;
    if (ibv_get_cq_event(ch, &cq, &ctx) == 0) {
      ibv_ack_cq_events(cq, 1);
      return cq;
    }
    auto left =
        std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return nullptr;
    pollfd pfd = {ch->fd, POLLIN, 0};
    poll(&pfd, 1, static_cast<int>(left.count()) + 1);
  }
}

int QpState(ibv_qp* qp) {
  ibv_qp_attr attr{};
  ibv_qp_init_attr init{};
  if (ibv_query_qp(qp, &attr, IBV_QP_STATE, &init)) return -1;
  return attr.qp_state;
}

::testing::AssertionResult QpReaches(ibv_qp* qp, ibv_qp_state state,
                                     milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  int now;
  while ((now = QpState(qp)) != state) {
    if (Clock::now() > deadline)
      return ::testing::AssertionFailure()
             << "QP " << qp->qp_num << " in state " << now << ", want "
             << state;
    std::this_thread::sleep_for(milliseconds(1));
  }
  return ::testing::AssertionSuccess();
}

}  // namespace rue::test
