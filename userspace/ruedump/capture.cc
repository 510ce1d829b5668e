// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/capture.h"

#include <pcap/pcap.h>

namespace rue::dump {

std::unique_ptr<Capture> Capture::Open(const std::string& path,
                                       std::string* error) {
  char errbuf[PCAP_ERRBUF_SIZE] = {};
  pcap_t* handle = pcap_open_offline_with_tstamp_precision(
      path.c_str(), PCAP_TSTAMP_PRECISION_MICRO, errbuf);
  if (!handle) {
    *error = errbuf;
    return nullptr;
  }
  return std::unique_ptr<Capture>(new Capture(handle));
}

Capture::~Capture() { pcap_close(handle_); }

int Capture::datalink() const { return pcap_datalink(handle_); }

Capture::Status Capture::Next(Packet* packet, std::string* error) {
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  const int rc = pcap_next_ex(handle_, &header, &data);
  if (rc == PCAP_ERROR_BREAK) return Status::kEnd;
  if (rc != 1) {
    *error = pcap_geterr(handle_);
    return Status::kError;
  }
  packet->number = ++count_;
  packet->seconds = header->ts.tv_sec;
  packet->micros = header->ts.tv_usec;
  packet->wire_length = header->len;
  packet->bytes =
      std::span(reinterpret_cast<const std::byte*>(data), header->caplen);
  return Status::kPacket;
}

}  // namespace rue::dump
