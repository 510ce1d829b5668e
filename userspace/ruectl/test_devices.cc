// SPDX-License-Identifier: GPL-2.0
#include "ruectl/test_devices.h"

#include <linux/rue_netlink.h>
#include <rdma/rue-abi.h>

#include <cerrno>

#include "ruectl/ruectl.h"

namespace rue::cli::testing {
namespace {

constexpr std::array<uint8_t, 16> kLinkLocal = {
    0xfe, 0x80, 0,    0,    0,    0,    0,    0,
    0x50, 0x54, 0x00, 0xff, 0xfe, 0x12, 0x34, 0x56};
constexpr std::array<uint8_t, 16> kMapped = {0, 0, 0,    0,    0,   0, 0, 0,
                                             0, 0, 0xff, 0xff, 192, 0, 2, 1};

Device Rue0() {
  Device d;
  d.index = 0;
  d.name = "rue0";
  d.netdev_index = 2;
  d.netdev = "eth0";
  d.port_state = 4;  // ACTIVE
  d.phys_state = 5;  // LINK_UP
  d.active_mtu = 1024;
  d.netdev_mtu = 1500;
  d.node_guid = 0x525400fffe123456ull;
  d.gids = {{0, kLinkLocal, RUE_GID_TYPE_ROCE_V1},
            {1, kLinkLocal, RUE_GID_TYPE_ROCE_V2},
            {2, kMapped, RUE_GID_TYPE_ROCE_V2}};
  return d;
}

Device Rue1() {
  Device d;
  d.index = 1;
  d.name = "rue1";
  d.netdev_index = 3;
  d.netdev = "eth1";
  d.port_state = 1;  // DOWN
  d.phys_state = 3;  // DISABLED
  d.active_mtu = 4096;
  d.netdev_mtu = 9000;
  d.node_guid = 0x525400fffe654321ull;
  return d;
}

DscpMap SampleDscpMap() {
  DscpMap map;
  for (size_t dscp = 0; dscp < map.size(); ++dscp) map[dscp] = dscp / 8;
  map[34] = 3;  // AF41, from 4
  return map;
}

DeviceCc Rue0Cc() {
  DeviceCc d{0, "rue0", {}};
  CcConfig& cc = d.cc;
  cc.ecn = RUE_ECN_ECT0;
  cc.dscp_prio = SampleDscpMap();
  cc.cnp_dscp = 48;
  cc.cnp_prio = 6;
  cc.np_enable = 0xe8;  // 3, 5-7
  cc.rp_enable = 0xe8;
  cc.min_time_between_cnps = 4;
  cc.dce_tcp_g = 1019;
  cc.dce_tcp_rtt = 1;
  cc.initial_alpha = 1023;
  cc.rate_reduce_monitor_period = 4;
  cc.rpg_gd = 11;
  cc.rpg_min_dec_fac = 50;
  cc.rpg_min_rate = 1;
  cc.rpg_max_rate = 0;
  cc.rate_to_set_on_first_cnp = 0;
  cc.clamp_tgt_rate = 0;
  cc.clamp_tgt_rate_after_time_inc = 1;
  cc.rpg_time_reset = 300;
  cc.rpg_byte_reset = 32767;
  cc.rpg_threshold = 1;
  cc.rpg_ai_rate = 5;
  cc.rpg_hai_rate = 50;
  cc.link_speed = 25000;
  cc.ets_tsa = {RUE_TSA_STRICT, RUE_TSA_STRICT, RUE_TSA_STRICT, RUE_TSA_ETS,
                RUE_TSA_ETS,    RUE_TSA_STRICT, RUE_TSA_STRICT, RUE_TSA_STRICT};
  cc.ets_weight = {0, 0, 0, 60, 40, 0, 0, 0};
  cc.pfc_enable = 0x18;  // 3-4
  cc.pfc_xoff = 65536;
  cc.pfc_xon = 32768;
  cc.pfc_quanta = 65535;
  cc.pfc_paused = 0;
  cc.pfc_asserted = 0x08;  // 3
  cc.prio = 0;
  cc.dcqcn_differ = 0x08;  // 3
  return d;
}

DeviceCc Rue0CcPrio3() {
  DeviceCc d = Rue0Cc();
  d.cc.prio = 3;
  d.cc.rpg_ai_rate = 10;
  d.cc.rpg_hai_rate = 100;
  return d;
}

DeviceCc Rue1Cc() {
  DeviceCc d{1, "rue1", {}};
  d.cc.ecn = RUE_ECN_OFF;
  d.cc.link_speed = 10000;
  return d;
}

Qp GsiQp() {
  Qp qp;
  qp.dev_index = 0;
  qp.dev = "rue0";
  qp.qpn = 1;
  qp.type = 1;   // IB_QPT_GSI
  qp.state = 3;  // IB_QPS_RTS
  qp.prio = 0;
  qp.dscp = 0;
  return qp;
}

Qp RcQp() {
  Qp qp;
  qp.dev_index = 0;
  qp.dev = "rue0";
  qp.qpn = 17;
  qp.type = 2;   // IB_QPT_RC
  qp.state = 3;  // IB_QPS_RTS
  qp.dest_qpn = 18;
  qp.prio = 3;
  qp.dscp = 26;
  qp.limited = true;
  qp.rate = 12500;
  qp.target = 18750;
  qp.alpha = 512;
  qp.cnp_sent = 0;
  qp.cnp_handled = 4;
  qp.ecn_marked = 0;
  qp.tx_bytes = 1234567;
  qp.cwnd = 128;
  return qp;
}

Job MakeJob(uint32_t dev_index, std::string dev, uint32_t id,
            std::optional<uint32_t> uid, std::optional<uint32_t> gid,
            uint32_t bound) {
  return Job{dev_index, std::move(dev), id, uid, gid, bound};
}

Pdc InitiatorPdc() {
  Pdc p;
  p.dev_index = 0;
  p.dev = "rue0";
  p.local_id = 1;
  p.remote_id = 5;
  p.role = RUE_PDC_ROLE_INITIATOR;
  p.mode = RUE_UET_MODE_RUD;
  p.job = 42;
  p.peer = "10.4.0.2";
  p.syn = false;
  p.closing = false;
  p.qpn = 17;
  p.next_psn = 105;
  p.una_psn = 100;
  p.srtt_us = 120;
  p.rto_us = 1000;
  p.retries = 0;
  p.cwnd = 0;
  return p;
}

Pdc TargetPdc() {
  Pdc p;
  p.dev_index = 0;
  p.dev = "rue0";
  p.local_id = 2;
  p.remote_id = 9;
  p.role = RUE_PDC_ROLE_TARGET;
  p.mode = RUE_UET_MODE_ROD;
  p.job = 42;
  p.peer = "fd00::2";
  p.rx_next_psn = 7;
  return p;
}

Pdc SynPdc() {
  Pdc p = InitiatorPdc();
  p.dev_index = 1;
  p.dev = "rue1";
  p.local_id = 3;
  p.remote_id = 0;
  p.peer = "10.4.0.1";
  p.syn = true;
  p.qpn = 20;
  p.next_psn = 1;
  p.una_psn = 0;
  p.srtt_us = 0;
  return p;
}

}  // namespace

std::vector<Device> SampleDevices() { return {Rue0(), Rue1()}; }

std::vector<DeviceCc> SampleCc() { return {Rue0Cc(), Rue1Cc()}; }

DeviceCc SampleCcPrio3() { return Rue0CcPrio3(); }

std::vector<Qp> SampleQps() { return {GsiQp(), RcQp()}; }

std::vector<Job> SampleJobs() {
  return {MakeJob(0, "rue0", 42, 1000, std::nullopt, 2),
          MakeJob(0, "rue0", 43, std::nullopt, 100, 0),
          MakeJob(1, "rue1", 7, std::nullopt, std::nullopt, 0)};
}

std::vector<Pdc> SamplePdcs() {
  return {InitiatorPdc(), TargetPdc(), SynPdc()};
}

std::vector<UetStats> SampleUetStats() {
  std::vector<UetCounter> rue0 = {
      {"pdc_opened", 3}, {"pdc_closed", 1}, {"acks_rcvd", 10}};
  return {UetStats{0, "rue0", rue0}, UetStats{1, "rue1", {{"pdc_opened", 0}}}};
}

nl::Result<std::vector<Device>> FakeBackend::ListDevices() {
  ++requests_;
  if (failure_) return *failure_;
  return devices_;
}

nl::Result<Device> FakeBackend::GetDevice(std::string_view name) {
  ++requests_;
  if (failure_) return *failure_;
  for (const Device& device : devices_) {
    if (device.name == name) return device;
  }
  return nl::Error{ENODEV, "no such rue device"};
}

bool FakeBackend::HasDevice(std::string_view name) const {
  for (const Device& device : devices_) {
    if (device.name == name) return true;
  }
  return false;
}

nl::Result<std::vector<DeviceCc>> FakeBackend::ListCc() {
  ++requests_;
  if (failure_) return *failure_;
  return cc_;
}

nl::Result<DeviceCc> FakeBackend::GetCc(std::string_view name,
                                        std::optional<uint32_t> prio) {
  ++requests_;
  gets_.emplace_back(name, prio);
  if (failure_) return *failure_;
  for (const DeviceCc& cc : prio_cc_) {
    if (prio && cc.name == name && cc.cc.prio == prio) return cc;
  }
  for (DeviceCc cc : cc_) {
    if (cc.name != name) continue;
    if (prio && cc.cc.prio) cc.cc.prio = prio;
    return cc;
  }
  return nl::Error{ENODEV, "no such rue device"};
}

nl::Status FakeBackend::SetCc(std::string_view name, const CcConfig& changes) {
  ++requests_;
  if (failure_) return *failure_;
  if (set_failure_) return *set_failure_;
  if (!HasDevice(name)) return nl::Error{ENODEV, "no such rue device"};
  sets_.emplace_back(name, changes);
  return nl::Ok();
}

nl::Result<std::vector<Qp>> FakeBackend::ListQps(std::string_view name) {
  ++requests_;
  if (failure_) return *failure_;
  if (!HasDevice(name)) return nl::Error{ENODEV, "no such rue device"};
  std::vector<Qp> qps;
  for (const Qp& qp : qps_) {
    if (qp.dev == name) qps.push_back(qp);
  }
  return qps;
}

nl::Result<std::vector<Job>> FakeBackend::ListJobs(
    std::optional<std::string_view> name) {
  ++requests_;
  if (failure_) return *failure_;
  if (name && !HasDevice(*name)) return nl::Error{ENODEV, "no such rue device"};
  std::vector<Job> jobs;
  for (const Job& job : jobs_) {
    if (!name || job.dev == *name) jobs.push_back(job);
  }
  return jobs;
}

nl::Result<Job> FakeBackend::GetJob(std::string_view name, uint32_t id) {
  ++requests_;
  if (failure_) return *failure_;
  if (!HasDevice(name)) return nl::Error{ENODEV, "no such rue device"};
  for (const Job& job : jobs_) {
    if (job.dev == name && job.id == id) return job;
  }
  return nl::Error{ENOENT, "no such job"};
}

nl::Status FakeBackend::AddJob(std::string_view name, const JobGrant& grant) {
  ++requests_;
  if (failure_) return *failure_;
  uint32_t index = 0;
  bool found = false;
  for (const Device& device : devices_) {
    if (device.name == name) {
      index = device.index;
      found = true;
    }
  }
  if (!found) return nl::Error{ENODEV, "no such rue device"};
  for (const Job& job : jobs_) {
    if (job.dev == name && job.id == grant.id)
      return nl::Error{EEXIST, "the device has this job already"};
  }
  jobs_.push_back(Job{index, std::string(name), grant.id, grant.uid,
                      grant.gid, 0});
  return nl::Ok();
}

nl::Status FakeBackend::DelJob(std::string_view name, uint32_t id) {
  ++requests_;
  if (failure_) return *failure_;
  if (!HasDevice(name)) return nl::Error{ENODEV, "no such rue device"};
  for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
    if (it->dev != name || it->id != id) continue;
    if (it->bound.value_or(0))
      return nl::Error{EBUSY, "QPs are bound to the job"};
    jobs_.erase(it);
    return nl::Ok();
  }
  return nl::Error{ENOENT, "no such job"};
}

nl::Result<std::vector<Pdc>> FakeBackend::ListPdcs(
    std::optional<std::string_view> name) {
  ++requests_;
  if (failure_) return *failure_;
  if (name && !HasDevice(*name)) return nl::Error{ENODEV, "no such rue device"};
  std::vector<Pdc> pdcs;
  for (const Pdc& pdc : pdcs_) {
    if (!name || pdc.dev == *name) pdcs.push_back(pdc);
  }
  return pdcs;
}

nl::Result<std::vector<UetStats>> FakeBackend::ListUetStats() {
  ++requests_;
  if (failure_) return *failure_;
  return uet_stats_;
}

nl::Result<UetStats> FakeBackend::GetUetStats(std::string_view name) {
  ++requests_;
  if (failure_) return *failure_;
  for (const UetStats& stats : uet_stats_) {
    if (stats.dev == name) return stats;
  }
  return nl::Error{ENODEV, "no such rue device"};
}

nl::Status ObjectTest::Run(std::vector<std::string_view> words,
                           Backend& backend) {
  std::vector<std::string> line;
  if (options_.json) line.push_back("-j");
  if (options_.pretty) line.push_back("-p");
  if (options_.details) line.push_back("-d");
  line.push_back(object_);
  line.insert(line.end(), words.begin(), words.end());
  return Execute(line, backend, out_);
}

std::string ObjectTest::Fails(std::vector<std::string_view> words, int code) {
  nl::Status s = Run(std::move(words));
  EXPECT_FALSE(s.ok());
  if (s.ok()) return "";
  EXPECT_EQ(s.error().code, code) << s.error().message;
  return s.error().message;
}

}  // namespace rue::cli::testing
