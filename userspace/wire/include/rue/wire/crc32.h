// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CRC-32 as used by Ethernet (IEEE 802.3) and by the InfiniBand/RoCEv2
// invariant CRC: polynomial 0x04C11DB7 processed bit-reflected (0xEDB88320),
// register initialised to all ones, result inverted.  Table-driven, one byte
// at a time; the table is computed at compile time.
#ifndef RUE_WIRE_CRC32_H_
#define RUE_WIRE_CRC32_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace rue::wire {

inline constexpr uint32_t kCrc32ReflectedPolynomial = 0xEDB88320u;

namespace internal {

constexpr std::array<uint32_t, 256> MakeCrc32Table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int bit = 0; bit < 8; ++bit) {
      c = (c & 1u) ? (c >> 1) ^ kCrc32ReflectedPolynomial : c >> 1;
    }
    table[n] = c;
  }
  return table;
}

}  // namespace internal

inline constexpr std::array<uint32_t, 256> kCrc32Table =
    internal::MakeCrc32Table();

// Incremental CRC-32.  Feed bytes with Update*(), read the CRC with Value().
class Crc32 {
 public:
  static constexpr uint32_t kInitialRegister = 0xFFFFFFFFu;

  constexpr Crc32() = default;

  constexpr void UpdateByte(uint8_t byte) {
    register_ = kCrc32Table[(register_ ^ byte) & 0xFFu] ^ (register_ >> 8);
  }
  constexpr void Update(std::span<const std::byte> bytes) {
    for (std::byte b : bytes) UpdateByte(static_cast<uint8_t>(b));
  }
  // Feeds n copies of byte.
  constexpr void UpdateRepeated(std::size_t n, uint8_t byte) {
    for (std::size_t i = 0; i < n; ++i) UpdateByte(byte);
  }

  // The raw shift register (not inverted).  Linux's crc32_le() returns this
  // form, which is why rdma_rxe seeds its ICRC with a register value.
  constexpr uint32_t register_value() const { return register_; }
  // The finished CRC: the register inverted.
  constexpr uint32_t Value() const { return ~register_; }

 private:
  uint32_t register_ = kInitialRegister;
};

constexpr uint32_t ComputeCrc32(std::span<const std::byte> bytes) {
  Crc32 crc;
  crc.Update(bytes);
  return crc.Value();
}

namespace internal {

constexpr uint32_t Crc32OfCheckString() {
  // The standard check input "123456789".
  const std::array<std::byte, 9> check = {
      std::byte{'1'}, std::byte{'2'}, std::byte{'3'},
      std::byte{'4'}, std::byte{'5'}, std::byte{'6'},
      std::byte{'7'}, std::byte{'8'}, std::byte{'9'}};
  return ComputeCrc32(check);
}

}  // namespace internal

// CRC-32/ISO-HDLC check value from the CRC catalogue.
static_assert(internal::Crc32OfCheckString() == 0xCBF43926u);
static_assert(kCrc32Table[1] == 0x77073096u);
static_assert(kCrc32Table[255] == 0x2D02EF8Du);

}  // namespace rue::wire

#endif  // RUE_WIRE_CRC32_H_
