// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The raw socket takes whole IPv4 packets (IPPROTO_RAW implies
// IP_HDRINCL); roce_inject's FrameSpec() gives the header it sends (DF,
// ID 0, which the ICRC covers and the kernel leaves alone).  The capture
// is in immediate mode and nonblocking: Drain() polls its descriptor.
#include "tests/forged_peer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "rue/wire/icrc.h"
#include "rue/wire/roce_builder.h"
#include "rue/wire/udp.h"
#include "tools/roce_inject_options.h"
#include "tools/roce_inject_packet.h"

namespace rue::test {
namespace {

using Clock = std::chrono::steady_clock;

std::optional<wire::Ipv4Address> Address(const std::string& text) {
  in_addr in{};
  if (inet_pton(AF_INET, text.c_str(), &in) != 1) return std::nullopt;
  wire::Ipv4Address a{};
  memcpy(a.data(), &in.s_addr, a.size());
  return a;
}

// Only what the target sends to RoCEv2's port.
std::string Filter(const std::string& target_ip) {
  return "udp dst port 4791 and src host " + target_ip;
}

}  // namespace

std::string AnswerString(const Answer& a) {
  std::ostringstream s;
  s << wire::LookupOpcode(a.opcode()).name << " psn 0x" << std::hex << a.psn();
  if (a.headers.aeth) s << " syndrome 0x" << unsigned{a.headers.aeth->syndrome};
  if (a.headers.atomic_ack_eth)
    s << " orig 0x" << a.headers.atomic_ack_eth->original_data;
  s << std::dec << ", " << a.payload.size() << " bytes";
  return s.str();
}

std::optional<std::string> GidNetdev(const std::string& dev, int index) {
  std::ifstream f("/sys/class/infiniband/" + dev + "/ports/1/gid_attrs/ndevs/" +
                  std::to_string(index));
  std::string name;
  if (!(f >> name)) return std::nullopt;
  return name;
}

ForgedPeer::~ForgedPeer() {
  if (pcap_) pcap_close(pcap_);
  if (fd_ >= 0) close(fd_);
}

std::optional<std::string> ForgedPeer::Open(const std::string& peer_ip,
                                            const std::string& target_ip,
                                            const std::string& ifname,
                                            std::unique_ptr<ForgedPeer>* out,
                                            int ring_bytes) {
  std::unique_ptr<ForgedPeer> p(new ForgedPeer);
  auto peer = Address(peer_ip), target = Address(target_ip);
  if (!peer || !target)
    return "not IPv4 addresses: " + peer_ip + ", " + target_ip;
  p->peer_ = *peer;
  p->target_ = *target;
  p->fd_ = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
  if (p->fd_ < 0)
    return std::string("raw socket (needs CAP_NET_RAW): ") + strerror(errno);

  char err[PCAP_ERRBUF_SIZE] = "";
  p->pcap_ = pcap_create(ifname.c_str(), err);
  if (!p->pcap_) return "pcap_create(" + ifname + "): " + err;
  // Immediate mode captures into fixed slots of the snap length: a jumbo
  // frame's, not 64 KiB, or the default ring holds 30 packets.
  pcap_set_snaplen(p->pcap_, 9216);
  pcap_set_immediate_mode(p->pcap_, 1);
  if (ring_bytes > 0) pcap_set_buffer_size(p->pcap_, ring_bytes);
  if (pcap_activate(p->pcap_) < 0)
    return "capture on " + ifname +
           " (run in the peer's namespace): " + pcap_geterr(p->pcap_);
  bpf_program prog{};
  if (pcap_compile(p->pcap_, &prog, Filter(target_ip).c_str(), 1,
                   PCAP_NETMASK_UNKNOWN) < 0)
    return std::string("pcap_compile: ") + pcap_geterr(p->pcap_);
  int ret = pcap_setfilter(p->pcap_, &prog);
  pcap_freecode(&prog);
  if (ret < 0) return std::string("pcap_setfilter: ") + pcap_geterr(p->pcap_);
  if (pcap_datalink(p->pcap_) != DLT_EN10MB)
    return ifname + " is not an Ethernet device";
  if (pcap_setnonblock(p->pcap_, 1, err) < 0)
    return std::string("pcap_setnonblock: ") + err;
  *out = std::move(p);
  return std::nullopt;
}

::testing::AssertionResult ForgedPeer::Send(const wire::RoceHeaders& headers,
                                            std::span<const uint8_t> payload) {
  return SendMutated(headers, payload, nullptr);
}

::testing::AssertionResult ForgedPeer::SendMutated(
    const wire::RoceHeaders& headers, std::span<const uint8_t> payload,
    const std::function<void(std::span<std::byte>)>& mutate) {
  inject::Options o;
  o.src = peer_;
  o.dst = target_;
  wire::RocePacketSpec spec;
  spec.frame = inject::FrameSpec(o);
  spec.headers = headers;
  spec.payload = std::as_bytes(payload);
  wire::Result<std::vector<std::byte>> pkt = wire::BuildRocePacket(spec);
  if (!pkt.ok())
    return ::testing::AssertionFailure() << "building: " << pkt.message();
  std::vector<std::byte> buf = *pkt;
  if (mutate) {
    // IPv4 without options, UDP, then the BTH; the ICRC is last.
    constexpr size_t kBth = 20 + wire::UdpHeader::kSize;
    std::span<std::byte> bytes(buf);
    mutate(bytes.subspan(kBth, bytes.size() - kBth - wire::kIcrcSize));
    std::optional<uint32_t> icrc = wire::ComputeIcrc(bytes);
    if (!icrc) return ::testing::AssertionFailure() << "no ICRC for it";
    for (size_t i = 0; i < wire::kIcrcSize; i++)
      bytes[bytes.size() - wire::kIcrcSize + i] =
          static_cast<std::byte>(*icrc >> (8 * i));
  }
  sockaddr_in to{};
  to.sin_family = AF_INET;
  memcpy(&to.sin_addr.s_addr, target_.data(), target_.size());
  ssize_t n = sendto(fd_, buf.data(), buf.size(), 0,
                     reinterpret_cast<const sockaddr*>(&to), sizeof(to));
  if (n != static_cast<ssize_t>(buf.size()))
    return ::testing::AssertionFailure()
           << "sendto: " << (n < 0 ? strerror(errno) : "short write");
  return ::testing::AssertionSuccess();
}

void ForgedPeer::OnPacket(u_char* self, const pcap_pkthdr* h,
                          const u_char* data) {
  auto* p = reinterpret_cast<ForgedPeer*>(self);
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data),
                                   h->caplen);
  wire::Result<wire::RoceFrame> f =
      wire::ParseRoceFrame(bytes, wire::LinkType::kEthernet);
  if (!f.ok() || !f->icrc_ok) {
    p->unparsed_++;
    return;
  }
  std::span<const std::byte> payload = f->roce.payload;
  Answer a;
  a.headers = f->roce.headers;
  a.payload.resize(payload.size());
  memcpy(a.payload.data(), payload.data(), payload.size());
  p->answers_.push_back(std::move(a));
}

void ForgedPeer::Drain(std::chrono::milliseconds wait) {
  pollfd pfd = {pcap_get_selectable_fd(pcap_), POLLIN, 0};
  poll(&pfd, 1, static_cast<int>(wait.count()));
  while (pcap_dispatch(pcap_, -1, OnPacket, reinterpret_cast<u_char*>(this)) >
         0) {
  }
}

std::vector<Answer> ForgedPeer::AnswersTo(uint32_t dest_qp) {
  Drain(std::chrono::milliseconds(0));
  std::vector<Answer> out;
  for (const Answer& a : answers_)
    if (a.headers.bth.dest_qp == dest_qp) out.push_back(a);
  return out;
}

::testing::AssertionResult ForgedPeer::WaitAnswers(
    uint32_t dest_qp,
    const std::function<bool(const std::vector<Answer>&)>& enough,
    std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  for (;;) {
    std::vector<Answer> got = AnswersTo(dest_qp);
    if (enough(got)) return ::testing::AssertionSuccess();
    if (Clock::now() > deadline) {
      auto r = ::testing::AssertionFailure();
      r << "after " << timeout.count() << " ms, " << got.size()
        << " answers to QP 0x" << std::hex << dest_qp << std::dec << " ("
        << unparsed_ << " captured packets unparsed):";
      for (const Answer& a : got) r << "\n  " << AnswerString(a);
      return r;
    }
    Drain(std::chrono::milliseconds(10));
  }
}

::testing::AssertionResult ForgedPeer::WaitCount(
    uint32_t dest_qp, size_t n, std::chrono::milliseconds timeout) {
  return WaitAnswers(
      dest_qp, [n](const std::vector<Answer>& got) { return got.size() >= n; },
      timeout);
}

}  // namespace rue::test
