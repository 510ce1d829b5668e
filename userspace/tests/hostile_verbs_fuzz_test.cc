// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Random verb sequences: a local user may call any verb with any
// argument, in any order, on any object it owns (issue 15's user-side
// fuzzer; the ring fuzzer, hostile_ring_fuzz_test.cc, covers what it
// writes into its rings).  Here one process works on both devices at
// once: it creates and destroys PDs, MRs (any access bits, lengths from
// zero to past its memory, addresses into a guard page), CQs and SRQs of
// any size, memory windows, address handles with random attributes, and
// QPs of any type and capacity; moves QPs through their states with
// sensible attributes (connected to another of its QPs, on either
// device, so that traffic flows) or with random bytes and masks; posts
// work requests with random opcodes, flags, SGEs, keys and addresses,
// receives, and polls; resizes, reregisters, binds, and destroys
// objects still in use.  Every system call must return; an object whose
// destroy succeeded is forgotten, one refused (in use) stays, and in the
// end every object must go, in dependency order.  The guest console
// stays clean and the suite's last case finds every QP and MR released
// (selftests/rue_hostile.sh).  RUE_FUZZ_SEED replays a run (the seed is
// printed), RUE_VERBS_FUZZ_STEPS sets its length (4000).
#include <sys/mman.h>

#include <array>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tests/conn.h"
#include "tests/env.h"

namespace rue::test {
namespace {

constexpr size_t kMem = 1 << 20;  // then one PROT_NONE page
constexpr uint32_t kMaxSge = 40;

// The objects of one device, as the fuzzer holds them.
struct Pool {
  Endpoint ep;
  std::vector<ibv_pd*> pds;
  std::vector<ibv_mr*> mrs;
  std::vector<ibv_cq*> cqs;
  std::vector<ibv_srq*> srqs;
  std::vector<ibv_qp*> qps;
  std::vector<ibv_mw*> mws;
  std::vector<ibv_ah*> ahs;
};

class HostileVerbs : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!ResolveTopology(Topology::kTwoDevices, &pools_[0].ep, &pools_[1].ep,
                         &why))
      GTEST_SKIP() << why;
    seed_ = FuzzSeed();
    steps_ = EnvOr("RUE_VERBS_FUZZ_STEPS", 4000);
    rng_.seed(seed_);
    mem_ =
        static_cast<uint8_t*>(mmap(nullptr, kMem + 4096, PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    ASSERT_NE(mem_, MAP_FAILED);
    ASSERT_EQ(mprotect(mem_ + kMem, 4096, PROT_NONE), 0);
  }

  void TearDown() override {
    if (mem_ && mem_ != MAP_FAILED) munmap(mem_, kMem + 4096);
  }

  // Counts a call of @verb and whether it succeeded; returns @ok.
  template <typename T>
  bool Tally(const char* verb, T ok) {
    auto& [calls, done] = tally_[verb];
    calls++;
    done += !!ok;
    return !!ok;
  }

  uint32_t Below(uint32_t n) { return n ? rng_() % n : 0; }
  bool OneIn(uint32_t n) { return Below(n) == 0; }
  uint64_t Bits() { return (uint64_t(rng_()) << 32) | rng_(); }

  // A count: small, a power of two, the edges, or anything.
  uint32_t Count(uint32_t typical) {
    switch (Below(8)) {
      case 0:
        return 0;
      case 1:
        return 1;
      case 2:
        return 1u << Below(32);
      case 3:
        return static_cast<uint32_t>(rng_());
      default:
        return 1 + Below(typical);
    }
  }

  template <typename T>
  T* Pick(const std::vector<T*>& v) {
    return v.empty() ? nullptr : v[Below(v.size())];
  }
  template <typename T>
  static void Forget(std::vector<T*>* v, T* o) {
    std::erase(*v, o);
  }
  Pool& AnyPool() { return pools_[Below(2)]; }

  // An address and length in our memory, at times reaching the guard
  // page or starting anywhere.
  std::pair<uint64_t, uint64_t> Span() {
    uint64_t off = OneIn(4) ? Below(16) * 4096 : Below(kMem);
    uint64_t len;
    switch (Below(6)) {
      case 0:
        len = 0;
        break;
      case 1:
        len = kMem - off + 1 + Below(8192);  // into the guard page
        break;
      case 2:
        len = Bits() >> Below(64);
        break;
      default:
        len = 1 + Below(std::min<uint64_t>(kMem - off, 65536));
    }
    uint64_t addr = reinterpret_cast<uint64_t>(mem_) + off;
    if (OneIn(16)) addr = Bits();
    return {addr, len};
  }

  int Access() {
    static constexpr int kAll =
        IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
        IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_MW_BIND |
        IBV_ACCESS_ZERO_BASED | IBV_ACCESS_ON_DEMAND | IBV_ACCESS_HUGETLB |
        IBV_ACCESS_RELAXED_ORDERING;
    if (OneIn(8)) return static_cast<int>(rng_());
    return static_cast<int>(rng_()) & (OneIn(3) ? kAll : 0xf);
  }

  // A key: one of a live MR's or MW's, or anything.
  uint32_t Key(bool remote) {
    Pool& p = AnyPool();
    if (!OneIn(4)) {
      if (ibv_mr* mr = Pick(p.mrs)) return remote ? mr->rkey : mr->lkey;
    }
    if (OneIn(2)) {
      if (ibv_mw* mw = Pick(p.mws)) return mw->rkey;
    }
    return static_cast<uint32_t>(rng_());
  }

  // --- objects ---------------------------------------------------------

  void AllocPd(Pool& p) {
    ibv_pd* pd = ibv_alloc_pd(p.ep.ctx());
    if (Tally("alloc_pd", pd)) p.pds.push_back(pd);
  }

  void RegMr(Pool& p) {
    ibv_pd* pd = Pick(p.pds);
    if (!pd) return;
    auto [addr, len] = Span();
    ibv_mr* mr = ibv_reg_mr(pd, reinterpret_cast<void*>(addr), len, Access());
    if (Tally("reg_mr", mr)) p.mrs.push_back(mr);
  }

  void ReregMr(Pool& p) {
    ibv_mr* mr = Pick(p.mrs);
    if (!mr) return;
    auto [addr, len] = Span();
    int flags = static_cast<int>(Below(8));  // CHANGE_TRANSLATION|PD|ACCESS
    if (OneIn(8)) flags = static_cast<int>(rng_());
    // A failed rereg leaves the MR in an undefined state (ibv_rereg_mr(3))
    // but still to be deregistered.
    Tally("rereg_mr",
          !ibv_rereg_mr(mr, flags, Pick(p.pds), reinterpret_cast<void*>(addr),
                        len, Access()));
  }

  void CreateCq(Pool& p) {
    ibv_cq* cq = ibv_create_cq(p.ep.ctx(), static_cast<int>(Count(256)),
                               nullptr, nullptr, static_cast<int>(Below(4)));
    if (Tally("create_cq", cq)) p.cqs.push_back(cq);
  }

  void CreateSrq(Pool& p) {
    ibv_pd* pd = Pick(p.pds);
    if (!pd) return;
    ibv_srq_init_attr a{};
    a.attr.max_wr = Count(128);
    a.attr.max_sge = OneIn(8) ? Count(64) : 1 + Below(8);
    a.attr.srq_limit = Below(4) ? 0 : Count(64);
    ibv_srq* srq = ibv_create_srq(pd, &a);
    if (Tally("create_srq", srq)) p.srqs.push_back(srq);
  }

  void ModifySrq(Pool& p) {
    ibv_srq* srq = Pick(p.srqs);
    if (!srq) return;
    ibv_srq_attr a{};
    a.max_wr = Count(256);
    a.srq_limit = Count(64);
    Tally("modify_srq", !ibv_modify_srq(srq, &a, static_cast<int>(Below(4))));
  }

  void CreateQp(Pool& p) {
    ibv_pd* pd = Pick(p.pds);
    ibv_cq* scq = Pick(p.cqs);
    ibv_cq* rcq = OneIn(2) ? scq : Pick(p.cqs);
    if (!pd || !scq || !rcq) return;
    static constexpr std::array kTypes = {IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD,
                                          IBV_QPT_RAW_PACKET, IBV_QPT_XRC_SEND};
    ibv_qp_init_attr a{};
    a.send_cq = scq;
    a.recv_cq = rcq;
    a.srq = OneIn(4) ? Pick(p.srqs) : nullptr;
    a.qp_type = OneIn(16) ? static_cast<ibv_qp_type>(rng_())
                          : kTypes[Below(Below(4) ? 3 : kTypes.size())];
    a.cap.max_send_wr = Count(64);
    a.cap.max_recv_wr = Count(64);
    a.cap.max_send_sge = OneIn(8) ? Count(64) : 1 + Below(6);
    a.cap.max_recv_sge = OneIn(8) ? Count(64) : 1 + Below(6);
    a.cap.max_inline_data = OneIn(2) ? 0 : Count(512);
    a.sq_sig_all = static_cast<int>(Below(2));
    ibv_qp* qp = ibv_create_qp(pd, &a);
    if (Tally("create_qp", qp)) p.qps.push_back(qp);
  }

  void CreateAh(Pool& p) {
    ibv_pd* pd = Pick(p.pds);
    if (!pd) return;
    ibv_ah_attr a{};
    Pool& to = AnyPool();
    a.is_global = OneIn(8) ? 0 : 1;
    a.port_num = OneIn(8) ? static_cast<uint8_t>(rng_()) : 1;
    a.grh.dgid = to.ep.gid();
    if (OneIn(4)) {
      for (auto& b : a.grh.dgid.raw) b = static_cast<uint8_t>(rng_());
    }
    a.grh.sgid_index = static_cast<uint8_t>(
        OneIn(4) ? rng_() : static_cast<uint32_t>(p.ep.gid_index));
    a.grh.hop_limit = static_cast<uint8_t>(rng_());
    a.grh.traffic_class = static_cast<uint8_t>(rng_());
    a.grh.flow_label = static_cast<uint32_t>(rng_());
    a.sl = static_cast<uint8_t>(rng_());
    a.dlid = static_cast<uint16_t>(rng_());
    a.static_rate = static_cast<uint8_t>(rng_());
    ibv_ah* ah = ibv_create_ah(pd, &a);
    if (Tally("create_ah", ah)) p.ahs.push_back(ah);
  }

  void AllocMw(Pool& p) {
    ibv_pd* pd = Pick(p.pds);
    if (!pd) return;
    auto type = OneIn(8) ? static_cast<ibv_mw_type>(rng_())
                         : (OneIn(2) ? IBV_MW_TYPE_1 : IBV_MW_TYPE_2);
    ibv_mw* mw = ibv_alloc_mw(pd, type);
    if (Tally("alloc_mw", mw)) p.mws.push_back(mw);
  }

  ibv_mw_bind_info BindInfo(Pool& p) {
    ibv_mw_bind_info b{};
    b.mr = Pick(p.mrs);
    auto [addr, len] = Span();
    b.addr = b.mr && OneIn(2) ? reinterpret_cast<uint64_t>(b.mr->addr) : addr;
    b.length = b.mr && OneIn(2) ? b.mr->length : len;
    b.mw_access_flags = static_cast<unsigned int>(Access());
    return b;
  }

  void BindMw(Pool& p) {
    ibv_mw* mw = Pick(p.mws);
    ibv_qp* qp = Pick(p.qps);
    if (!mw || !qp) return;
    ibv_mw_bind bind{};
    bind.wr_id = rng_();
    bind.send_flags = Below(2) ? IBV_SEND_SIGNALED : 0;
    bind.bind_info = BindInfo(p);
    if (!bind.bind_info.mr) return;  // librue reads it
    Tally("bind_mw", !ibv_bind_mw(qp, mw, &bind));
  }

  // Destroys one object of a kind; a refusal (in use) keeps it.
  template <typename T>
  void Destroy(const char* verb, std::vector<T*>* v, int (*destroy)(T*)) {
    T* o = Pick(*v);
    if (o && Tally(verb, !destroy(o))) Forget(v, o);
  }

  // --- QP states --------------------------------------------------------

  // Sensible attributes for the next state of @qp, connected (RC, UC) to
  // a QP of either device; or random bytes and a random mask.
  void ModifyQp(Pool& p) {
    ibv_qp* qp = Pick(p.qps);
    if (!qp) return;
    ibv_qp_attr a{};
    int mask;
    if (OneIn(4)) {
      auto* raw = reinterpret_cast<uint8_t*>(&a);
      for (size_t i = 0; i < sizeof(a); i++) raw[i] = rng_();
      mask = static_cast<int>(rng_()) & (OneIn(4) ? -1 : 0x1fffff);
    } else {
      mask = Sensible(p, qp, &a);
    }
    Tally("modify_qp", !ibv_modify_qp(qp, &a, mask));
  }

  int Sensible(Pool& p, ibv_qp* qp, ibv_qp_attr* a) {
    const bool ud = qp->qp_type == IBV_QPT_UD;
    int state = QpState(qp);
    if (OneIn(10)) state = OneIn(2) ? IBV_QPS_RTS : IBV_QPS_RTR;
    switch (state) {
      case IBV_QPS_RESET:
        a->qp_state = IBV_QPS_INIT;
        a->pkey_index = OneIn(16) ? Below(4) : 0;
        a->port_num = OneIn(16) ? Below(4) : 1;
        if (ud) {
          a->qkey = rng_();
          return IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY;
        }
        a->qp_access_flags = Access() & 0xf;
        return IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
               IBV_QP_ACCESS_FLAGS;
      case IBV_QPS_INIT: {
        a->qp_state = IBV_QPS_RTR;
        if (ud) return IBV_QP_STATE;
        Pool& to = AnyPool();
        ibv_qp* peer = Pick(to.qps);
        a->path_mtu = static_cast<ibv_mtu>(OneIn(8) ? rng_() : 1 + Below(5));
        a->dest_qp_num = peer && !OneIn(8) ? peer->qp_num : rng_();
        a->rq_psn = OneIn(2) ? 0 : rng_() & 0xffffff;
        a->max_dest_rd_atomic = static_cast<uint8_t>(Below(20));
        a->min_rnr_timer = static_cast<uint8_t>(Below(32));
        a->ah_attr.is_global = 1;
        a->ah_attr.port_num = 1;
        a->ah_attr.grh.dgid = to.ep.gid();
        a->ah_attr.grh.sgid_index = static_cast<uint8_t>(p.ep.gid_index);
        a->ah_attr.grh.hop_limit = 64;
        a->ah_attr.grh.traffic_class = static_cast<uint8_t>(rng_());
        int m = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                IBV_QP_RQ_PSN;
        if (qp->qp_type == IBV_QPT_RC)
          m |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
        return m;
      }
      case IBV_QPS_RTR: {
        a->qp_state = IBV_QPS_RTS;
        a->sq_psn = OneIn(2) ? 0 : rng_() & 0xffffff;
        // small timeouts too: a retransmission timer of 8 us
        a->timeout = static_cast<uint8_t>(Below(32));
        a->retry_cnt = static_cast<uint8_t>(Below(8));
        a->rnr_retry = static_cast<uint8_t>(Below(8));
        a->max_rd_atomic = static_cast<uint8_t>(Below(20));
        int m = IBV_QP_STATE | IBV_QP_SQ_PSN;
        if (qp->qp_type == IBV_QPT_RC)
          m |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
               IBV_QP_MAX_QP_RD_ATOMIC;
        return m;
      }
      default: {
        // A QP in RTS mostly stays there, so that work flows; the others
        // go back towards it (SQD, SQE) or are recycled (ERR to RESET).
        static constexpr std::array kTo = {
            IBV_QPS_ERR, IBV_QPS_RESET, IBV_QPS_SQD, IBV_QPS_RTS, IBV_QPS_SQE};
        if (state == IBV_QPS_RTS && !OneIn(4)) {
          a->qp_state = IBV_QPS_RTS;
          a->min_rnr_timer = static_cast<uint8_t>(Below(32));
          return IBV_QP_STATE |
                 (qp->qp_type == IBV_QPT_RC ? IBV_QP_MIN_RNR_TIMER : 0);
        }
        if (OneIn(2)) {
          a->qp_state = state == IBV_QPS_ERR ? IBV_QPS_RESET : IBV_QPS_RTS;
          return IBV_QP_STATE;
        }
        a->qp_state = kTo[Below(kTo.size())];
        a->cur_qp_state = static_cast<ibv_qp_state>(state);
        return IBV_QP_STATE | (OneIn(2) ? IBV_QP_CUR_STATE : 0);
      }
    }
  }

  // --- work requests -----------------------------------------------------

  // @n SGEs: in a live MR, or anywhere with any key.
  void Sges(uint32_t n, ibv_sge* sges) {
    for (uint32_t i = 0; i < n; i++) {
      Pool& p = AnyPool();
      ibv_mr* mr = Pick(p.mrs);
      auto [addr, len] = Span();
      if (mr && mr->length && !OneIn(4)) {
        uint64_t off = Below(
            static_cast<uint32_t>(std::min<size_t>(mr->length, 1u << 20)));
        addr = reinterpret_cast<uint64_t>(mr->addr) + off;
        len = 1 + Below(static_cast<uint32_t>(
                      std::min<size_t>(mr->length - off, 16384)));
      }
      sges[i] = {addr, static_cast<uint32_t>(len),
                 mr && !OneIn(8) ? mr->lkey : Key(false)};
    }
  }

  // Inline data is read by librue from the SGEs' addresses: those must
  // be ours (a bad pointer would fault in this process, not the kernel).
  void InlineSafe(uint32_t n, ibv_sge* sges) {
    for (uint32_t i = 0; i < n; i++) {
      sges[i].addr = reinterpret_cast<uint64_t>(mem_) + Below(kMem - 4096);
      sges[i].length = Below(4) ? Below(256) : Below(4096);
    }
  }

  // An opcode a QP of @type takes.
  ibv_wr_opcode Opcode(ibv_qp_type type) {
    static constexpr std::array kRc = {IBV_WR_RDMA_WRITE,
                                       IBV_WR_RDMA_WRITE_WITH_IMM,
                                       IBV_WR_SEND,
                                       IBV_WR_SEND_WITH_IMM,
                                       IBV_WR_RDMA_READ,
                                       IBV_WR_ATOMIC_CMP_AND_SWP,
                                       IBV_WR_ATOMIC_FETCH_AND_ADD,
                                       IBV_WR_LOCAL_INV,
                                       IBV_WR_SEND_WITH_INV};
    static constexpr std::array kUc = {IBV_WR_RDMA_WRITE,
                                       IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_SEND,
                                       IBV_WR_SEND_WITH_IMM};
    switch (type) {
      case IBV_QPT_RC:
        return kRc[Below(kRc.size())];
      case IBV_QPT_UC:
        return kUc[Below(kUc.size())];
      default:
        return OneIn(2) ? IBV_WR_SEND : IBV_WR_SEND_WITH_IMM;
    }
  }

  void PostSend(Pool& p) {
    ibv_qp* qp = Pick(p.qps);
    if (!qp) return;
    const uint32_t nwr = 1 + Below(4);
    std::array<ibv_send_wr, 4> wrs{};
    std::array<std::array<ibv_sge, kMaxSge>, 4> sges{};
    for (uint32_t i = 0; i < nwr; i++) {
      ibv_send_wr& wr = wrs[i];
      wr.wr_id = rng_();
      wr.next = i + 1 < nwr ? &wrs[i + 1] : nullptr;
      // Mostly work the QP can do, so that the data path is reached;
      // else any opcode and flags.
      const bool plain = !OneIn(4);
      wr.opcode =
          plain ? Opcode(qp->qp_type)
                : static_cast<ibv_wr_opcode>(OneIn(4) ? rng_() : Below(16));
      wr.send_flags =
          static_cast<unsigned int>(rng_()) &
          (plain ? IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED |
                       (OneIn(8) ? IBV_SEND_INLINE : 0)
                 : (OneIn(4) ? ~0u : 0x1f));
      wr.num_sge = static_cast<int>(
          plain ? Below(3) : (OneIn(4) ? Below(kMaxSge + 1) : Below(4)));
      Sges(wr.num_sge, sges[i].data());
      if (wr.send_flags & IBV_SEND_INLINE)
        InlineSafe(wr.num_sge, sges[i].data());
      wr.sg_list = sges[i].data();
      wr.imm_data = rng_();
      if (wr.opcode == IBV_WR_BIND_MW) {
        wr.bind_mw.mw = Pick(p.mws);
        wr.bind_mw.rkey =
            OneIn(2) && wr.bind_mw.mw ? wr.bind_mw.mw->rkey : rng_();
        wr.bind_mw.bind_info = BindInfo(p);
        if (!wr.bind_mw.mw || !wr.bind_mw.bind_info.mr) return;
      } else if (qp->qp_type == IBV_QPT_UD) {
        wr.wr.ud.ah = Pick(p.ahs);
        ibv_qp* to = Pick(AnyPool().qps);
        wr.wr.ud.remote_qpn = to && OneIn(2) ? to->qp_num : rng_();
        wr.wr.ud.remote_qkey = rng_();
      } else if (wr.opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
                 wr.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
        ibv_mr* mr = Pick(AnyPool().mrs);
        wr.wr.atomic.remote_addr =
            mr && !OneIn(4) ? (reinterpret_cast<uint64_t>(mr->addr) & ~7ull)
                            : Bits();
        wr.wr.atomic.rkey = mr && !OneIn(4) ? mr->rkey : Key(true);
        wr.wr.atomic.compare_add = Bits();
        wr.wr.atomic.swap = Bits();
      } else {
        ibv_mr* mr = Pick(AnyPool().mrs);
        wr.wr.rdma.remote_addr =
            mr && !OneIn(4) ? reinterpret_cast<uint64_t>(mr->addr) +
                                  Below(static_cast<uint32_t>(mr->length) + 1)
                            : Bits();
        wr.wr.rdma.rkey = mr && !OneIn(4) ? mr->rkey : Key(true);
      }
    }
    ibv_send_wr* bad = nullptr;
    if (Tally("post_send", !ibv_post_send(qp, wrs.data(), &bad)))
      posted_ += nwr;
  }

  void PostRecv(Pool& p) {
    ibv_qp* qp = Pick(p.qps);
    ibv_srq* srq = OneIn(4) ? Pick(p.srqs) : nullptr;
    if (!qp && !srq) return;
    std::array<ibv_sge, kMaxSge> sges{};
    ibv_recv_wr wr{};
    wr.wr_id = rng_();
    wr.num_sge = static_cast<int>(OneIn(8) ? Below(kMaxSge + 1) : Below(4));
    Sges(wr.num_sge, sges.data());
    wr.sg_list = sges.data();
    ibv_recv_wr* bad = nullptr;
    if (srq)
      Tally("post_srq_recv", !ibv_post_srq_recv(srq, &wr, &bad));
    else
      Tally("post_recv", !ibv_post_recv(qp, &wr, &bad));
  }

  void PollCq(Pool& p) {
    ibv_cq* cq = Pick(p.cqs);
    if (!cq) return;
    ibv_wc wc[16];
    int n = ibv_poll_cq(cq, 1 + Below(16), wc);
    if (n > 0) polled_ += n;
    if (OneIn(4)) (void)ibv_req_notify_cq(cq, static_cast<int>(Below(2)));
  }

  void QueryQp(Pool& p) {
    ibv_qp* qp = Pick(p.qps);
    if (!qp) return;
    ibv_qp_attr a;
    ibv_qp_init_attr ia;
    int mask = static_cast<int>(rng_());
    if (!OneIn(4)) mask &= 0x1fffff;
    Tally("query_qp", !ibv_query_qp(qp, &a, mask, &ia));
  }

  // --- the run ---------------------------------------------------------

  void Step() {
    Pool& p = AnyPool();
    using Action = std::function<void()>;
    const std::array<std::pair<int, Action>, 22> actions = {{
        {3, [&] { AllocPd(p); }},
        {1, [&] { Destroy("dealloc_pd", &p.pds, ibv_dealloc_pd); }},
        {6, [&] { RegMr(p); }},
        {2, [&] { Destroy("dereg_mr", &p.mrs, ibv_dereg_mr); }},
        {1, [&] { ReregMr(p); }},
        {3, [&] { CreateCq(p); }},
        {1, [&] { Destroy("destroy_cq", &p.cqs, ibv_destroy_cq); }},
        {1,
         [&] {
           if (ibv_cq* cq = Pick(p.cqs))
             Tally("resize_cq",
                   !ibv_resize_cq(cq, static_cast<int>(Count(512))));
         }},
        {2, [&] { CreateSrq(p); }},
        {1, [&] { ModifySrq(p); }},
        {1, [&] { Destroy("destroy_srq", &p.srqs, ibv_destroy_srq); }},
        {5, [&] { CreateQp(p); }},
        {16, [&] { ModifyQp(p); }},
        {2, [&] { QueryQp(p); }},
        {1, [&] { Destroy("destroy_qp", &p.qps, ibv_destroy_qp); }},
        {2, [&] { CreateAh(p); }},
        {1, [&] { Destroy("destroy_ah", &p.ahs, ibv_destroy_ah); }},
        {2, [&] { AllocMw(p); }},
        {2, [&] { BindMw(p); }},
        {1, [&] { Destroy("dealloc_mw", &p.mws, ibv_dealloc_mw); }},
        {20, [&] { PostSend(p); }},
        {18,
         [&] {
           PostRecv(p);
           PollCq(p);
         }},
    }};
    int total = 0;
    for (const auto& [w, a] : actions) total += w;
    int r = static_cast<int>(Below(total));
    for (const auto& [w, a] : actions) {
      if (r < w) {
        a();
        return;
      }
      r -= w;
    }
  }

  // Everything goes, users before what they use; each destroy must
  // succeed now.
  void DestroyAll(Pool& p) {
    for (ibv_qp* qp : p.qps) EXPECT_EQ(ibv_destroy_qp(qp), 0) << "QP";
    for (ibv_mw* mw : p.mws) EXPECT_EQ(ibv_dealloc_mw(mw), 0) << "MW";
    for (ibv_ah* ah : p.ahs) EXPECT_EQ(ibv_destroy_ah(ah), 0) << "AH";
    for (ibv_srq* srq : p.srqs) EXPECT_EQ(ibv_destroy_srq(srq), 0) << "SRQ";
    for (ibv_cq* cq : p.cqs) EXPECT_EQ(ibv_destroy_cq(cq), 0) << "CQ";
    for (ibv_mr* mr : p.mrs) EXPECT_EQ(ibv_dereg_mr(mr), 0) << "MR";
    for (ibv_pd* pd : p.pds) EXPECT_EQ(ibv_dealloc_pd(pd), 0) << "PD";
    Endpoint ep = p.ep;
    p = Pool();
    p.ep = ep;
  }

  std::array<Pool, 2> pools_;
  uint64_t seed_ = 0;
  uint64_t steps_ = 0;
  std::mt19937 rng_;
  uint8_t* mem_ = nullptr;
  uint64_t posted_ = 0;
  uint64_t polled_ = 0;
  std::map<std::string, std::pair<uint64_t, uint64_t>> tally_;
};

TEST_F(HostileVerbs, RandomVerbSequences) {
  std::map<std::string, size_t> peak;
  for (uint64_t i = 0; i < steps_; i++) {
    Step();
    for (const Pool& p : pools_) {
      peak["qps"] = std::max(peak["qps"], p.qps.size());
      peak["mrs"] = std::max(peak["mrs"], p.mrs.size());
      if (i % 64) continue;
      size_t rts = 0;
      for (ibv_qp* qp : p.qps) rts += QpState(qp) == IBV_QPS_RTS;
      peak["rts"] = std::max(peak["rts"], rts);
    }
  }
  std::cout << "# " << steps_ << " steps: " << posted_
            << " work requests posted, " << polled_ << " completions; at most "
            << peak["qps"] << " QPs (" << peak["rts"] << " in RTS) and "
            << peak["mrs"] << " MRs on a device\n#";
  for (const auto& [verb, n] : tally_)
    std::cout << " " << verb << " " << n.second << "/" << n.first;
  std::cout << "\n";
  for (Pool& p : pools_) DestroyAll(p);
  // The run reached the data path: a fuzzer that only made objects and
  // had every post refused would prove little.
  EXPECT_GT(posted_, steps_ / 200);
  EXPECT_GT(polled_, 0u);
  EXPECT_GT(peak["rts"], 0u);
}

}  // namespace
}  // namespace rue::test
