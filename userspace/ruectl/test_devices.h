// SPDX-License-Identifier: GPL-2.0
//
// Test helpers: sample devices, their congestion control, QPs, jobs, UET
// PDCs and counters, a Backend that serves them, a fixture that runs one
// object's command lines against it, and argv as main() gets it.
#ifndef RUE_RUECTL_TEST_DEVICES_H_
#define RUE_RUECTL_TEST_DEVICES_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nl/result.h"
#include "ruectl/backend.h"
#include "ruectl/cc.h"
#include "ruectl/dev.h"
#include "ruectl/job.h"
#include "ruectl/pdc.h"
#include "ruectl/print.h"
#include "ruectl/qp.h"
#include "ruectl/uet.h"

namespace rue::cli::testing {

// rue0: up on eth0, with a link-local GID (RoCEv1 and v2) and an
// IPv4-mapped one; rue1: down on eth1, with no GIDs.
std::vector<Device> SampleDevices();

// rue0: every parameter, the mlx5 defaults but ECN on (ect0), NP and RP on
// for priorities 3 and 5-7, and DSCP 34 on priority 3 (the rest on
// DSCP / 8); priorities 3 and 4 ETS (60% and 40%) with PFC, the others
// strict, and priority 3 in XOFF; the DCQCN parameters of priority 0
// (prio 0), priority 3's differing from them (dcqcn-differ 3); rue1: only
// ecn and link-speed (an older kernel's reply).
std::vector<DeviceCc> SampleCc();

// rue0 as CC_GET with RUE_A_CC_PRIO 3 reports it: SampleCc()[0] with prio
// 3 and that priority's increase steps, rpg-ai-rate 10 and rpg-hai-rate
// 100.
DeviceCc SampleCcPrio3();

// Two QPs on rue0: the GSI QP (no peer, no CC state) and an RC QP that
// is rate limited.  None on rue1.
std::vector<Qp> SampleQps();

// Three jobs: rue0's 42 (uid 1000, two QPs bound) and 43 (gid 100), and
// rue1's 7 (neither: CAP_NET_ADMIN only).
std::vector<Job> SampleJobs();

// Three PDCs: on rue0 an initiator (RUD, PDCID 1 to the peer's 5 at
// 10.4.0.2, QP 17, job 42) and a target (ROD, PDCID 2 for fd00::2's 9);
// on rue1 an initiator whose SYN is still out (PDCID 3, peer PDCID 0).
std::vector<Pdc> SamplePdcs();

// rue0: pdc_opened 3, pdc_closed 1, acks_rcvd 10; rue1: pdc_opened 0.
std::vector<UetStats> SampleUetStats();

// GetCc() with a priority answers from `prio_cc` (device name and
// CcConfig::prio) when it has that priority of that device; otherwise
// from `cc`, the priority changed to the one asked for (its DCQCN
// parameters are then priority 0's) unless the reply has none (an older
// kernel's, which ignores the priority).
class FakeBackend : public Backend {
 public:
  explicit FakeBackend(std::vector<Device> devices = SampleDevices(),
                       std::vector<DeviceCc> cc = SampleCc(),
                       std::vector<Qp> qps = SampleQps(),
                       std::vector<DeviceCc> prio_cc = {SampleCcPrio3()},
                       std::vector<Job> jobs = SampleJobs(),
                       std::vector<Pdc> pdcs = SamplePdcs(),
                       std::vector<UetStats> uet_stats = SampleUetStats())
      : devices_(std::move(devices)),
        cc_(std::move(cc)),
        qps_(std::move(qps)),
        prio_cc_(std::move(prio_cc)),
        jobs_(std::move(jobs)),
        pdcs_(std::move(pdcs)),
        uet_stats_(std::move(uet_stats)) {}

  // Makes every request fail with `error`.
  void FailWith(nl::Error error) { failure_ = std::move(error); }
  // Makes SetCc() alone fail with `error`.
  void FailSetWith(nl::Error error) { set_failure_ = std::move(error); }

  nl::Result<std::vector<Device>> ListDevices() override;
  nl::Result<Device> GetDevice(std::string_view name) override;
  nl::Result<std::vector<DeviceCc>> ListCc() override;
  nl::Result<DeviceCc> GetCc(std::string_view name,
                             std::optional<uint32_t> prio) override;
  nl::Status SetCc(std::string_view name, const CcConfig& changes) override;
  nl::Result<std::vector<Qp>> ListQps(std::string_view name) override;
  // The jobs as the kernel keeps them: AddJob() and DelJob() change the
  // table, with the kernel's EEXIST, ENOENT and EBUSY (a job with QPs
  // bound).
  nl::Result<std::vector<Job>> ListJobs(
      std::optional<std::string_view> name) override;
  nl::Result<Job> GetJob(std::string_view name, uint32_t id) override;
  nl::Status AddJob(std::string_view name, const JobGrant& grant) override;
  nl::Status DelJob(std::string_view name, uint32_t id) override;
  nl::Result<std::vector<Pdc>> ListPdcs(
      std::optional<std::string_view> name) override;
  nl::Result<std::vector<UetStats>> ListUetStats() override;
  nl::Result<UetStats> GetUetStats(std::string_view name) override;

  const std::vector<Job>& jobs() const { return jobs_; }
  int requests() const { return requests_; }
  // What SetCc() was asked, in order: device name and changes.
  const std::vector<std::pair<std::string, CcConfig>>& sets() const {
    return sets_;
  }
  // What GetCc() was asked, in order: device name and priority.
  const std::vector<std::pair<std::string, std::optional<uint32_t>>>& gets()
      const {
    return gets_;
  }

 private:
  bool HasDevice(std::string_view name) const;

  std::vector<Device> devices_;
  std::vector<DeviceCc> cc_;
  std::vector<Qp> qps_;
  std::vector<DeviceCc> prio_cc_;
  std::vector<Job> jobs_;
  std::vector<Pdc> pdcs_;
  std::vector<UetStats> uet_stats_;
  std::optional<nl::Error> failure_;
  std::optional<nl::Error> set_failure_;
  std::vector<std::pair<std::string, CcConfig>> sets_;
  std::vector<std::pair<std::string, std::optional<uint32_t>>> gets_;
  int requests_ = 0;
};

// The command lines of one object, through the whole program with a
// FakeBackend: Run({"show", "rue0"}) runs "ruectl [-j] [-p] [-d] OBJECT
// show rue0", with the options options_ sets.
class ObjectTest : public ::testing::Test {
 protected:
  explicit ObjectTest(std::string object) : object_(std::move(object)) {}

  nl::Status Run(std::vector<std::string_view> words) {
    return Run(std::move(words), backend_);
  }
  // The same against `backend`.
  nl::Status Run(std::vector<std::string_view> words, Backend& backend);

  // Runs `words`, which must fail with `code`, and returns the message.
  std::string Fails(std::vector<std::string_view> words, int code);

  Options options_;
  FakeBackend backend_;
  std::ostringstream out_;

 private:
  std::string object_;
};

// A mutable argv, as main() gets it, from string literals.
class Argv {
 public:
  // argv[0] is "ruectl"; `words` follow it.
  Argv(std::initializer_list<const char*> words)
      : Argv(std::vector<const char*>(words)) {}
  explicit Argv(const std::vector<const char*>& words) : strings_{"ruectl"} {
    strings_.insert(strings_.end(), words.begin(), words.end());
    for (std::string& s : strings_) pointers_.push_back(s.data());
    pointers_.push_back(nullptr);
  }
  Argv(const Argv&) = delete;
  Argv& operator=(const Argv&) = delete;

  int argc() const { return static_cast<int>(strings_.size()); }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;
};

}  // namespace rue::cli::testing

#endif  // RUE_RUECTL_TEST_DEVICES_H_
