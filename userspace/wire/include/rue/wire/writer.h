// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Writer: a bounds-checked cursor over a borrowed output buffer, writing
// integers in network byte order.  The mirror image of Reader:
//  - A write that succeeds advances the cursor by exactly the bytes written.
//  - A write that fails (no room, or a value that does not fit its field)
//    writes nothing, does not advance, and poisons the writer: every later
//    write fails, so callers may check ok() once at the end.
//  - The writer never owns the buffer.
//
// Protocol-neutral: nothing here knows about RoCE, UET or IP.
#ifndef RUE_WIRE_WRITER_H_
#define RUE_WIRE_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace rue::wire {

class Writer {
 public:
  explicit Writer(std::span<std::byte> buffer) : buffer_(buffer) {}

  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  bool WriteU8(uint8_t value) { return WriteBigEndian(1, value); }
  bool WriteU16(uint16_t value) { return WriteBigEndian(2, value); }
  // Fails (and poisons) if value does not fit in 24 bits.
  bool WriteU24(uint32_t value) {
    if (value > 0xFFFFFFu) {
      failed_ = true;
      return false;
    }
    return WriteBigEndian(3, value);
  }
  bool WriteU32(uint32_t value) { return WriteBigEndian(4, value); }
  bool WriteU64(uint64_t value) { return WriteBigEndian(8, value); }

  // Little-endian 32-bit write (the RoCEv2 ICRC is sent LSB first).
  bool WriteU32Le(uint32_t value) {
    if (!Ensure(4)) return false;
    for (std::size_t i = 0; i < 4; ++i) {
      buffer_[offset_ + i] = static_cast<std::byte>(value >> (8 * i));
    }
    offset_ += 4;
    return true;
  }

  bool WriteBytes(std::span<const std::byte> bytes) {
    if (!Ensure(bytes.size())) return false;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      buffer_[offset_ + i] = bytes[i];
    }
    offset_ += bytes.size();
    return true;
  }

  // Writes n copies of value.
  bool WriteRepeated(std::size_t n, std::byte value) {
    if (!Ensure(n)) return false;
    for (std::size_t i = 0; i < n; ++i) buffer_[offset_ + i] = value;
    offset_ += n;
    return true;
  }

  // Poisons the writer, e.g. when a header field is out of range.
  void Fail() { failed_ = true; }

  bool ok() const { return !failed_; }
  // Bytes written so far.
  std::size_t length() const { return offset_; }
  // Room left; 0 once the writer is poisoned.
  std::size_t remaining() const {
    return failed_ ? 0 : buffer_.size() - offset_;
  }
  // The bytes written so far, writable so that a caller can patch a length
  // or checksum once the rest of the packet is known.
  std::span<std::byte> Written() const { return buffer_.first(offset_); }

 private:
  bool Ensure(std::size_t n) {
    if (failed_ || n > buffer_.size() - offset_) {
      failed_ = true;
      return false;
    }
    return true;
  }

  template <typename T>
  bool WriteBigEndian(std::size_t n, T value) {
    if (!Ensure(n)) return false;
    for (std::size_t i = 0; i < n; ++i) {
      buffer_[offset_ + i] =
          static_cast<std::byte>(value >> (8 * (n - 1 - i)));
    }
    offset_ += n;
    return true;
  }

  std::span<std::byte> buffer_;
  std::size_t offset_ = 0;
  bool failed_ = false;
};

}  // namespace rue::wire

#endif  // RUE_WIRE_WRITER_H_
