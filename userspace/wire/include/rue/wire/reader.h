// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Reader: a bounds-checked cursor over borrowed bytes, reading integers in
// network byte order.
//
// Contract (the same for every method):
//  - A read that succeeds advances the cursor by exactly the bytes it read.
//  - A read that fails (not enough bytes) does not advance the cursor and
//    poisons the reader: every later read fails too, so a caller can issue a
//    sequence of reads and check ok() once at the end.
//  - The reader never owns the bytes; they must outlive it.
//
// Protocol-neutral: nothing here knows about RoCE, UET or IP.
#ifndef RUE_WIRE_READER_H_
#define RUE_WIRE_READER_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace rue::wire {

class Reader {
 public:
  explicit Reader(std::span<const std::byte> data) : data_(data) {}

  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  bool ReadU8(uint8_t* value) { return ReadBigEndian(1, value); }
  bool ReadU16(uint16_t* value) { return ReadBigEndian(2, value); }
  // Reads 3 bytes into the low 24 bits of *value.
  bool ReadU24(uint32_t* value) { return ReadBigEndian(3, value); }
  bool ReadU32(uint32_t* value) { return ReadBigEndian(4, value); }
  bool ReadU64(uint64_t* value) { return ReadBigEndian(8, value); }

  // Little-endian 32-bit read, for the few trailers sent LSB first (the
  // RoCEv2 ICRC, like the Ethernet FCS).
  bool ReadU32Le(uint32_t* value) {
    if (!Ensure(4)) return false;
    uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      v |= static_cast<uint32_t>(data_[offset_ + i]) << (8 * i);
    }
    offset_ += 4;
    *value = v;
    return true;
  }

  // Copies out.size() bytes into out.
  bool ReadBytes(std::span<std::byte> out) {
    if (!Ensure(out.size())) return false;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = data_[offset_ + i];
    offset_ += out.size();
    return true;
  }

  // Borrows the next n bytes without copying them.
  bool ReadSpan(std::size_t n, std::span<const std::byte>* out) {
    if (!Ensure(n)) return false;
    *out = data_.subspan(offset_, n);
    offset_ += n;
    return true;
  }

  bool Skip(std::size_t n) {
    if (!Ensure(n)) return false;
    offset_ += n;
    return true;
  }

  // Poisons the reader, e.g. when a field value (not a length) is invalid.
  void Fail() { failed_ = true; }

  bool ok() const { return !failed_; }
  // Bytes consumed so far.
  std::size_t offset() const { return offset_; }
  // Bytes left; 0 once the reader is poisoned.
  std::size_t remaining() const {
    return failed_ ? 0 : data_.size() - offset_;
  }
  bool AtEnd() const { return remaining() == 0; }
  // The unread bytes (empty once poisoned).
  std::span<const std::byte> Rest() const {
    return failed_ ? std::span<const std::byte>() : data_.subspan(offset_);
  }

 private:
  bool Ensure(std::size_t n) {
    if (failed_ || n > data_.size() - offset_) {
      failed_ = true;
      return false;
    }
    return true;
  }

  template <typename T>
  bool ReadBigEndian(std::size_t n, T* value) {
    if (!Ensure(n)) return false;
    T v = 0;
    for (std::size_t i = 0; i < n; ++i) {
      v = static_cast<T>(v << 8) | static_cast<T>(data_[offset_ + i]);
    }
    offset_ += n;
    *value = v;
    return true;
  }

  std::span<const std::byte> data_;
  std::size_t offset_ = 0;
  bool failed_ = false;
};

}  // namespace rue::wire

#endif  // RUE_WIRE_READER_H_
