#include "servers/desktop_commander/binary_detect.h"

#include <cstdint>

namespace sbx::servers::desktop_commander {
namespace {

constexpr std::size_t kScanBytes = 512;

// isbinaryfile's Reader: past the end (or after an error) every byte is
// 0xff and the error sticks.
class ProtoReader {
 public:
  ProtoReader(std::string_view data, std::size_t size) : data_(data), size_(size) {}
  bool error() const { return error_; }
  void set_error() { error_ = true; }
  std::uint8_t NextByte() {
    if (offset_ == size_ || error_) {
      error_ = true;
      return 0xff;
    }
    return static_cast<std::uint8_t>(data_[offset_++]);
  }
  void Skip(std::int32_t len) {
    for (std::int32_t i = 0; i < len; ++i) {
      if (error_) return;
      NextByte();
    }
  }

 private:
  std::string_view data_;
  std::size_t size_;
  std::size_t offset_ = 0;
  bool error_ = false;
};

// JavaScript's int32 arithmetic: `v | ((b & 0x7f) << (7 * idx))`, where a
// shift count is taken modulo 32.
std::int32_t ReadVarInt(ProtoReader& r) {
  std::int32_t idx = 0;
  std::uint32_t value = 0;
  while (!r.error()) {
    std::uint8_t b = r.NextByte();
    value |= static_cast<std::uint32_t>(b & 0x7f) << ((7 * idx) & 31);
    if ((b & 0x80) == 0) break;
    if (idx >= 10) {
      r.set_error();
      break;
    }
    ++idx;
  }
  return static_cast<std::int32_t>(value);
}

bool ReadProtoMessage(ProtoReader& r) {
  std::int32_t key = ReadVarInt(r);
  switch (key & 0x7) {
    case 0:
      ReadVarInt(r);
      return true;
    case 1:
      r.Skip(8);
      return true;
    case 2:
      r.Skip(ReadVarInt(r));
      return true;
    case 5:
      r.Skip(4);
      return true;
    default:
      return false;
  }
}

bool LooksLikeProtobuf(std::string_view data, std::size_t size) {
  ProtoReader r(data, size);
  int messages = 0;
  for (;;) {
    if (!ReadProtoMessage(r) && !r.error()) return false;
    if (r.error()) break;
    ++messages;
  }
  return messages > 0;
}

}  // namespace

bool LooksBinary(std::string_view head) {
  const std::size_t read = head.size();
  if (read == 0) return false;
  auto at = [&](std::size_t i) { return static_cast<std::uint8_t>(head[i]); };
  const std::size_t total = read < kBinaryProbeBytes ? read : kBinaryProbeBytes;
  const std::size_t scan = total < kScanBytes ? total : kScanBytes;

  if (read >= 3 && at(0) == 0xef && at(1) == 0xbb && at(2) == 0xbf) return false;  // UTF-8 BOM
  if (read >= 4 && at(0) == 0x00 && at(1) == 0x00 && at(2) == 0xfe && at(3) == 0xff) return false;
  if (read >= 4 && at(0) == 0xff && at(1) == 0xfe && at(2) == 0x00 && at(3) == 0x00) return false;
  if (read >= 4 && at(0) == 0x84 && at(1) == 0x31 && at(2) == 0x95 && at(3) == 0x33) return false;
  if (total >= 5 && head.substr(0, 5) == "%PDF-") return true;
  if (read >= 2 && at(0) == 0xfe && at(1) == 0xff) return false;  // UTF-16 BE BOM
  if (read >= 2 && at(0) == 0xff && at(1) == 0xfe) return false;  // UTF-16 LE BOM

  std::size_t suspicious = 0;
  auto cont = [&](std::size_t i) { return i < read && at(i) >= 0x80 && at(i) <= 0xbf; };
  for (std::size_t i = 0; i < scan; ++i) {
    std::uint8_t b = at(i);
    if (b == 0) return true;
    if ((b < 7 || b > 14) && (b < 32 || b > 127)) {
      if (b >= 0xc0 && b <= 0xdf && i + 1 < total) {
        ++i;
        if (cont(i)) continue;
      } else if (b >= 0xe0 && b <= 0xef && i + 2 < total) {
        ++i;
        if (cont(i) && cont(i + 1)) {
          ++i;
          continue;
        }
      } else if (b >= 0xf0 && b <= 0xf7 && i + 3 < total) {
        ++i;
        if (cont(i) && cont(i + 1) && cont(i + 2)) {
          i += 2;
          continue;
        }
      }
      ++suspicious;
      if (i >= 32 && static_cast<double>(suspicious) * 100 / static_cast<double>(scan) > 10) return true;
    }
  }
  if (static_cast<double>(suspicious) * 100 / static_cast<double>(scan) > 10) return true;
  if (suspicious > 1 && LooksLikeProtobuf(head, scan)) return true;
  return false;
}

}  // namespace sbx::servers::desktop_commander
