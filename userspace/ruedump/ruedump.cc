// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/ruedump.h"

#include <memory>
#include <optional>
#include <string>

#include "ruedump/capture.h"
#include "ruedump/counts.h"
#include "ruedump/json_output.h"
#include "ruedump/link_layer.h"
#include "ruedump/options.h"
#include "ruedump/packet_decoder.h"
#include "ruedump/packet_output.h"

#ifndef RUE_VERSION
#define RUE_VERSION "unknown"
#endif

namespace rue::dump {
namespace {

constexpr char kName[] = "ruedump";

int Fail(std::ostream& err, const std::string& message) {
  err << kName << ": " << message << "\n";
  return kExitError;
}

// libpcap names the file in some of its messages, not in others.
std::string WithFileName(const std::string& file, const std::string& error) {
  if (error.starts_with(file + ":")) return error;
  return file + ": " + error;
}

// Prints every selected packet (up to -c of them) and counts them all.
// False (with *error) if the capture could not be read to its end.
bool DumpPackets(Capture& capture, LinkType link_type, const Options& options,
                 std::ostream& out, Counts* counts, std::string* error) {
  uint64_t shown = 0;
  Packet packet;
  while (!options.count || shown < *options.count) {
    const Capture::Status status = capture.Next(&packet, error);
    if (status == Capture::Status::kEnd) return true;
    if (status == Capture::Status::kError) return false;
    const Decoded decoded = DecodePacket(packet, link_type, options.selection);
    counts->Add(decoded.verdict);
    if (decoded.verdict == Verdict::kOther) continue;
    out << RenderPacket(decoded.record, packet.bytes, options);
    ++shown;
  }
  return true;
}

void PrintSummary(const Counts& counts, const Options& options,
                  std::ostream& out, std::ostream& err) {
  if (!options.check) {
    err << SummaryText(counts);
  } else if (options.json) {
    out << RenderJson(SummaryRecord(counts), false);
  } else {
    out << SummaryText(counts);
  }
}

int DumpFile(const Options& options, std::ostream& out, std::ostream& err) {
  std::string error;
  std::unique_ptr<Capture> capture = Capture::Open(options.file, &error);
  if (!capture) return Fail(err, WithFileName(options.file, error));
  const std::optional<LinkType> link_type =
      LinkTypeFromDlt(capture->datalink());
  if (!link_type) {
    return Fail(err, options.file + ": link type " +
                         std::to_string(capture->datalink()) +
                         " is not supported (Ethernet, raw IP, Linux "
                         "cooked v1/v2 are)");
  }
  Counts counts;
  const bool read_all =
      DumpPackets(*capture, *link_type, options, out, &counts, &error);
  out.flush();
  PrintSummary(counts, options, out, err);
  if (!read_all) return Fail(err, options.file + ": " + error);
  if (options.check && !counts.Clean()) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace

int Run(int argc, char* argv[], std::ostream& out, std::ostream& err) {
  std::string error;
  const std::optional<Options> options = ParseOptions(argc, argv, &error);
  if (!options) {
    Fail(err, error);
    err << "Try '" << kName << " --help'.\n";
    return kExitError;
  }
  if (options->help) {
    out << Usage();
    return kExitOk;
  }
  if (options->version) {
    out << kName << " (rue) " << RUE_VERSION << "\n";
    return kExitOk;
  }
  return DumpFile(*options, out, err);
}

}  // namespace rue::dump
