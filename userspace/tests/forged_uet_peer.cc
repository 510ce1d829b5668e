// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A UDP socket suffices: the threat here is what the headers say, not
// who the IP header claims to be (ForgedPeer's raw socket covers that).
// The capture is in immediate mode and nonblocking: Drain() polls it.
#include "tests/forged_uet_peer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "rue/wire/uet_names.h"
#include "rue/wire/writer.h"

namespace rue::test {
namespace {

using Clock = std::chrono::steady_clock;

bool SockAddr(const std::string& ip, uint16_t port, sockaddr_in* sa) {
  *sa = {};
  sa->sin_family = AF_INET;
  sa->sin_port = htons(port);
  return inet_pton(AF_INET, ip.c_str(), &sa->sin_addr) == 1;
}

}  // namespace

int UetAnswer::dpdcid() const {
  if (const auto* a = std::get_if<wire::PdsAck>(&headers.pds)) return a->dpdcid;
  if (const auto* n = std::get_if<wire::PdsNack>(&headers.pds))
    return n->dpdcid;
  return -1;
}

std::string UetAnswerString(const UetAnswer& a) {
  std::ostringstream s;
  s << wire::PdsTypeName(a.type());
  if (const auto* n = std::get_if<wire::PdsNack>(&a.headers.pds)) {
    s << " code 0x" << std::hex << unsigned{n->nack_code} << std::dec << " psn "
      << n->nack_psn;
  }
  if (const auto* k = std::get_if<wire::PdsAck>(&a.headers.pds))
    s << " cack " << k->cack_psn;
  s << " dpdcid " << a.dpdcid();
  if (a.headers.ses_response)
    s << " rc 0x" << std::hex << unsigned{a.headers.ses_response->return_code}
      << std::dec;
  s << ", " << a.payload.size() << " bytes";
  return s.str();
}

wire::UetHeaders RudRequest(uint16_t spdcid, uint32_t psn, bool syn,
                            uint16_t dpdcid_or_psn_off,
                            const wire::SesRequest& ses) {
  wire::PdsRequest r;
  r.prologue.type = static_cast<uint8_t>(wire::PdsType::kRudReq);
  r.prologue.next_hdr = static_cast<uint8_t>(wire::NextHeader::kReqStd);
  r.prologue.flags = wire::pds_flags::kAr | (syn ? wire::pds_flags::kSyn : 0);
  r.psn = psn;
  r.spdcid = spdcid;
  r.dpdcid = dpdcid_or_psn_off;
  wire::UetHeaders h;
  h.pds = r;
  h.ses_request = ses;
  h.ses_request->kind = wire::SesRequestKind::kStd;
  return h;
}

wire::UetHeaders UudRequest(const wire::SesRequest& ses) {
  wire::PdsUud u;
  u.prologue.type = static_cast<uint8_t>(wire::PdsType::kUudReq);
  u.prologue.next_hdr = static_cast<uint8_t>(wire::NextHeader::kReqStd);
  wire::UetHeaders h;
  h.pds = u;
  h.ses_request = ses;
  h.ses_request->kind = wire::SesRequestKind::kStd;
  return h;
}

ForgedUetPeer::~ForgedUetPeer() {
  if (pcap_) pcap_close(pcap_);
  if (fd_ >= 0) close(fd_);
}

std::optional<std::string> ForgedUetPeer::Open(
    const std::string& peer_ip, const std::string& target_ip,
    const std::string& ifname, std::unique_ptr<ForgedUetPeer>* out) {
  std::unique_ptr<ForgedUetPeer> p(new ForgedUetPeer);
  sockaddr_in from;
  if (!SockAddr(peer_ip, 0, &from)) return "not an IPv4 address: " + peer_ip;
  p->target_ip_ = target_ip;
  p->fd_ = socket(AF_INET, SOCK_DGRAM, 0);
  if (p->fd_ < 0) return std::string("UDP socket: ") + strerror(errno);
  if (bind(p->fd_, reinterpret_cast<const sockaddr*>(&from), sizeof(from)))
    return "bind to " + peer_ip +
           " (run in the peer's namespace): " + strerror(errno);

  char err[PCAP_ERRBUF_SIZE] = "";
  p->pcap_ = pcap_create(ifname.c_str(), err);
  if (!p->pcap_) return "pcap_create(" + ifname + "): " + err;
  // In immediate mode every frame of the ring takes the snap length: at
  // 64 KiB the default ring (2 MiB) holds about 30, and a window's burst
  // of requests would overrun it.  No UET packet here exceeds a 9000-byte
  // MTU.
  pcap_set_snaplen(p->pcap_, 9216);
  pcap_set_immediate_mode(p->pcap_, 1);
  pcap_set_buffer_size(p->pcap_, 8 << 20);
  if (pcap_activate(p->pcap_) < 0)
    return "capture on " + ifname + ": " + pcap_geterr(p->pcap_);
  std::string filter = "udp dst port 4793 and src host " + target_ip;
  bpf_program prog{};
  if (pcap_compile(p->pcap_, &prog, filter.c_str(), 1, PCAP_NETMASK_UNKNOWN) <
      0)
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

::testing::AssertionResult ForgedUetPeer::Send(
    const wire::UetHeaders& headers, std::span<const uint8_t> payload) {
  return SendMutated(headers, payload, nullptr);
}

::testing::AssertionResult ForgedUetPeer::SendMutated(
    const wire::UetHeaders& headers, std::span<const uint8_t> payload,
    const std::function<void(std::span<std::byte>)>& mutate) {
  std::vector<std::byte> buf(256 + payload.size());
  wire::Writer w(buf);
  if (!wire::WriteUetHeaders(w, headers) ||
      !w.WriteBytes(std::as_bytes(payload)))
    return ::testing::AssertionFailure() << "headers that do not agree";
  if (mutate) mutate(std::span<std::byte>(buf).first(w.length()));
  sockaddr_in to;
  SockAddr(target_ip_, wire::kUetUdpPort, &to);
  ssize_t n = sendto(fd_, buf.data(), w.length(), 0,
                     reinterpret_cast<const sockaddr*>(&to), sizeof(to));
  if (n != static_cast<ssize_t>(w.length()))
    return ::testing::AssertionFailure()
           << "sendto: " << (n < 0 ? strerror(errno) : "short write");
  return ::testing::AssertionSuccess();
}

void ForgedUetPeer::OnPacket(u_char* self, const pcap_pkthdr* h,
                             const u_char* data) {
  auto* p = reinterpret_cast<ForgedUetPeer*>(self);
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data),
                                   h->caplen);
  wire::Result<wire::UetFrame> f =
      wire::ParseUetFrame(bytes, wire::LinkType::kEthernet);
  if (!f.ok()) {
    p->unparsed_++;
    return;
  }
  UetAnswer a;
  a.headers = f->uet.headers;
  a.payload.resize(f->uet.payload.size());
  memcpy(a.payload.data(), f->uet.payload.data(), a.payload.size());
  p->answers_.push_back(std::move(a));
}

void ForgedUetPeer::Drain(std::chrono::milliseconds wait) {
  pollfd pfd = {pcap_get_selectable_fd(pcap_), POLLIN, 0};
  poll(&pfd, 1, static_cast<int>(wait.count()));
  while (pcap_dispatch(pcap_, -1, OnPacket, reinterpret_cast<u_char*>(this)) >
         0) {
  }
}

std::vector<UetAnswer> ForgedUetPeer::Answers() {
  Drain(std::chrono::milliseconds(0));
  return answers_;
}

::testing::AssertionResult ForgedUetPeer::WaitAnswers(
    const std::function<bool(const std::vector<UetAnswer>&)>& enough,
    std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  for (;;) {
    std::vector<UetAnswer> got = Answers();
    if (enough(got)) return ::testing::AssertionSuccess();
    if (Clock::now() > deadline) {
      auto r = ::testing::AssertionFailure();
      r << "after " << timeout.count() << " ms, " << got.size()
        << " UET answers (" << unparsed_ << " captured packets unparsed):";
      for (const UetAnswer& a : got) r << "\n  " << UetAnswerString(a);
      return r;
    }
    Drain(std::chrono::milliseconds(10));
  }
}

}  // namespace rue::test
