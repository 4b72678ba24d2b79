#include "ooxml/package.h"

#include <zip.h>

#include <algorithm>
#include <unordered_set>
#include <memory>

#include "core/strings.h"
#include "core/utf8.h"
#include "ooxml/zip_names.h"

namespace sbx::ooxml {
namespace {

// Names in messages: control bytes shown as \xHH so a hostile name cannot
// forge lines in a log or a tool result.
std::string Printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7F) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};
struct SourceFreer {
  void operator()(zip_source_t* s) const { zip_source_free(s); }
};

std::string ZipErrorText(int code) {
  zip_error_t e;
  zip_error_init_with_code(&e, code);
  std::string text = zip_error_strerror(&e);
  zip_error_fini(&e);
  return text;
}

// The DOS date of 1980-01-01 00:00, the earliest a zip can say: fixed so
// that Write() is deterministic and says nothing about when it ran.
constexpr zip_uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;
constexpr zip_uint16_t kDosTime = 0;

}  // namespace

Status CheckPartName(std::string_view name) {
  auto bad = [&](std::string_view why) {
    return MakeFault(Fault::kBadEntryName, Printable(name), std::string("invalid part name: ") + std::string(why));
  };
  if (name.empty() || name[0] != '/') return bad("it must start with '/' (a zip entry name must not)");
  if (name.size() == 1) return bad("it names the package root, not a part");
  if (name.back() == '/') return bad("it ends with '/'");
  for (unsigned char c : name) {
    if (c == 0) return bad("it contains a NUL byte");
    if (c == '\\') return bad("it contains a backslash");
    if (c < 0x20 || c == 0x7F) return bad("it contains a control character");
  }
  if (!utf8::IsWellFormed(name)) return bad("it is not UTF-8");
  std::size_t start = 1;
  while (start <= name.size()) {
    std::size_t end = name.find('/', start);
    if (end == std::string_view::npos) end = name.size();
    std::string_view seg = name.substr(start, end - start);
    if (seg.empty()) return bad("it has an empty segment");
    if (seg == "." || seg == "..") return bad("it has a '.' or '..' segment");
    if (seg.back() == '.') return bad("a segment ends with '.'");
    start = end + 1;
  }
  return {};
}

bool SamePartName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strings::AsciiLower(a) == strings::AsciiLower(b);
}

Package Package::Empty() { return Package(); }

std::ptrdiff_t Package::IndexOf(std::string_view name) const {
  auto it = index_.find(strings::AsciiLower(name));
  return it == index_.end() ? -1 : static_cast<std::ptrdiff_t>(it->second);
}

void Package::Append(std::string name, std::string key, std::string bytes) {
  index_.emplace(key, parts_.size());
  parts_.push_back(Part{std::move(name), std::move(key), std::move(bytes)});
}

bool Package::Has(std::string_view name) const { return IndexOf(name) >= 0; }

Result<std::string_view> Package::Bytes(std::string_view name) const {
  auto i = IndexOf(name);
  if (i < 0) return MakeFault(Fault::kMissingPart, Printable(name), "no such part in the package");
  return std::string_view(parts_[static_cast<std::size_t>(i)].bytes);
}

Status Package::Set(std::string_view name, std::string bytes) {
  if (auto s = CheckPartName(name); !s) return s;
  auto i = IndexOf(name);
  if (i >= 0) {
    parts_[static_cast<std::size_t>(i)].bytes = std::move(bytes);
  } else {
    Append(std::string(name), strings::AsciiLower(name), std::move(bytes));
  }
  return {};
}

bool Package::Remove(std::string_view name) {
  auto i = IndexOf(name);
  if (i < 0) return false;
  parts_.erase(parts_.begin() + i);
  index_.clear();
  for (std::size_t k = 0; k < parts_.size(); ++k) index_.emplace(parts_[k].key, k);
  return true;
}

std::vector<std::string> Package::Names() const {
  std::vector<std::string> out;
  out.reserve(parts_.size());
  for (const auto& p : parts_) out.push_back(p.name);
  return out;
}

Result<Package> Package::Read(std::string_view zip_bytes, const Limits& limits) {
  if (zip_bytes.size() > limits.max_package_bytes)
    return MakeFault(Fault::kTooLarge, "", "the package is " + std::to_string(zip_bytes.size()) +
                                               " bytes, over the limit of " +
                                               std::to_string(limits.max_package_bytes));
  // libzip opens zero bytes as an empty archive; a file it is not.
  if (zip_bytes.empty()) return MakeFault(Fault::kNotZip, "", "not a valid zip archive (the file is empty)");
  // NUL in a name is visible only in the raw directory (libzip rewrites it),
  // and libzip refuses exact duplicates with a message that names no entry:
  // both are checked on the raw names first.
  if (auto raw = internal::RawEntryNames(zip_bytes, limits.max_parts)) {
    std::unordered_set<std::string> seen;
    for (const auto& n : *raw) {
      if (n.find('\0') != std::string::npos)
        return MakeFault(Fault::kBadEntryName, Printable(n), "invalid part name: it contains a NUL byte");
      if (!n.empty() && n.back() == '/') continue;
      std::string key = strings::AsciiLower(n);
      if (!seen.insert(std::move(key)).second)
        return MakeFault(Fault::kDuplicatePart, Printable("/" + n), "the part occurs twice (names compare ignoring case)");
    }
  }

  zip_error_t err;
  zip_error_init(&err);
  std::unique_ptr<zip_source_t, SourceFreer> src(zip_source_buffer_create(zip_bytes.data(), zip_bytes.size(), 0, &err));
  if (!src) {
    zip_error_fini(&err);
    return MakeFault(Fault::kInternal, "", "cannot open the zip buffer");
  }
  std::unique_ptr<zip_t, ZipCloser> za(zip_open_from_source(src.get(), ZIP_RDONLY | ZIP_CHECKCONS, &err));
  if (!za) {
    int code = zip_error_code_zip(&err);
    std::string text = zip_error_strerror(&err);
    zip_error_fini(&err);
    if (code == ZIP_ER_MEMORY) return MakeFault(Fault::kInternal, "", "out of memory opening the zip");
    if (code == ZIP_ER_EXISTS) return MakeFault(Fault::kDuplicatePart, "", "two entries have the same name");
    return MakeFault(Fault::kNotZip, "", "not a valid zip archive (" + text + ")");
  }
  src.release();  // owned by the archive now
  zip_error_fini(&err);

  zip_int64_t count = zip_get_num_entries(za.get(), 0);
  if (count < 0) return MakeFault(Fault::kNotZip, "", "not a valid zip archive");
  if (static_cast<std::uint64_t>(count) > limits.max_parts)
    return MakeFault(Fault::kTooLarge, "", "the package has " + std::to_string(count) + " entries, over the limit of " +
                                               std::to_string(limits.max_parts));

  Package pkg;
  std::uint64_t total = 0;
  std::string buf(64 * 1024, '\0');
  for (zip_int64_t i = 0; i < count; ++i) {
    auto idx = static_cast<zip_uint64_t>(i);
    const char* raw_name = zip_get_name(za.get(), idx, ZIP_FL_ENC_RAW);
    if (raw_name == nullptr) return MakeFault(Fault::kNotZip, "", "entry " + std::to_string(i) + " has no name");
    std::string entry(raw_name);
    std::string part = "/" + entry;
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(za.get(), idx, ZIP_FL_ENC_RAW, &st) != 0)
      return MakeFault(Fault::kNotZip, Printable(part), "cannot read the entry's header");
    // A directory entry ("xl/") carries no part; some writers add them.
    if (!entry.empty() && entry.back() == '/' && (st.valid & ZIP_STAT_SIZE) && st.size == 0) {
      std::string dir = "/" + entry.substr(0, entry.size() - 1);
      if (auto s = CheckPartName(dir); !s) return s.error();
      continue;
    }
    if (!entry.empty() && entry[0] == '/')
      return MakeFault(Fault::kBadEntryName, Printable(entry), "invalid part name: the zip entry name is absolute");
    if (auto s = CheckPartName(part); !s) return s.error();
    if (pkg.Has(part)) return MakeFault(Fault::kDuplicatePart, Printable(part), "the part occurs twice (names compare ignoring case)");
    if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
      return MakeFault(Fault::kEncrypted, Printable(part), "the entry is encrypted");
    if ((st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method != ZIP_CM_STORE && st.comp_method != ZIP_CM_DEFLATE)
      return MakeFault(Fault::kUnsupported, Printable(part),
                       "the entry uses compression method " + std::to_string(st.comp_method) + " (only stored and deflate are read)");

    std::unique_ptr<zip_file_t, ZipFileCloser> f(zip_fopen_index(za.get(), idx, 0));
    if (!f) {
      int code = zip_error_code_zip(zip_get_error(za.get()));
      if (code == ZIP_ER_NOPASSWD || code == ZIP_ER_ENCRNOTSUPP || code == ZIP_ER_WRONGPASSWD)
        return MakeFault(Fault::kEncrypted, Printable(part), "the entry is encrypted");
      if (code == ZIP_ER_COMPNOTSUPP) return MakeFault(Fault::kUnsupported, Printable(part), "unsupported compression");
      return MakeFault(Fault::kCorruptEntry, Printable(part), "cannot open the entry (" + ZipErrorText(code) + ")");
    }
    // Sizes in the headers are claims: count what inflating produces and
    // stop at the bounds, so a lying size or a ratio bomb costs no more
    // than the bound.
    std::string data;
    while (true) {
      zip_int64_t n = zip_fread(f.get(), buf.data(), buf.size());
      if (n < 0) {
        int code = zip_error_code_zip(zip_file_get_error(f.get()));
        return MakeFault(Fault::kCorruptEntry, Printable(part), "the entry's data is corrupt (" + ZipErrorText(code) + ")");
      }
      if (n == 0) break;
      auto got = static_cast<std::uint64_t>(n);
      if (data.size() + got > limits.max_part_bytes)
        return MakeFault(Fault::kTooLarge, Printable(part), "the part inflates past the limit of " +
                                                                std::to_string(limits.max_part_bytes) + " bytes");
      if (total + got > limits.max_total_bytes)
        return MakeFault(Fault::kTooLarge, Printable(part), "the package inflates past the limit of " +
                                                                std::to_string(limits.max_total_bytes) + " bytes in all");
      total += got;
      data.append(buf.data(), static_cast<std::size_t>(n));
    }
    pkg.Append(part, strings::AsciiLower(part), std::move(data));
  }
  if (!pkg.Has(kContentTypesPart))
    return MakeFault(Fault::kMissingPart, kContentTypesPart, "the package has no [Content_Types].xml: not an OOXML file");
  return pkg;
}

Result<std::string> Package::Write() const {
  auto ct = IndexOf(kContentTypesPart);
  if (ct < 0) return MakeFault(Fault::kMissingPart, kContentTypesPart, "cannot write a package without [Content_Types].xml");
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(nullptr, 0, 0, &err);
  if (src == nullptr) {
    zip_error_fini(&err);
    return MakeFault(Fault::kInternal, "", "cannot create the zip buffer");
  }
  zip_t* za = zip_open_from_source(src, ZIP_TRUNCATE, &err);
  zip_error_fini(&err);
  if (za == nullptr) {
    zip_source_free(src);
    return MakeFault(Fault::kInternal, "", "cannot create the zip archive");
  }
  zip_source_keep(src);  // keep the buffer after zip_close to read it back
  std::unique_ptr<zip_source_t, SourceFreer> out(src);

  std::vector<std::size_t> order;
  order.push_back(static_cast<std::size_t>(ct));
  for (std::size_t i = 0; i < parts_.size(); ++i)
    if (static_cast<std::ptrdiff_t>(i) != ct) order.push_back(i);
  for (std::size_t i : order) {
    const Part& p = parts_[i];
    auto fail = [&](std::string_view what) {
      std::string text = zip_error_strerror(zip_get_error(za));
      zip_discard(za);
      return MakeFault(Fault::kInternal, p.name, std::string(what) + " (" + text + ")");
    };
    zip_source_t* s = zip_source_buffer(za, p.bytes.data(), p.bytes.size(), 0);
    if (s == nullptr) return fail("cannot add the part");
    zip_int64_t idx = zip_file_add(za, p.name.c_str() + 1, s, ZIP_FL_ENC_UTF_8);
    if (idx < 0) {
      zip_source_free(s);
      return fail("cannot add the part");
    }
    auto u = static_cast<zip_uint64_t>(idx);
    if (zip_set_file_compression(za, u, ZIP_CM_DEFLATE, 6) != 0) return fail("cannot set compression");
    if (zip_file_set_dostime(za, u, kDosTime, kDosDate, 0) != 0) return fail("cannot set the timestamp");
  }
  if (zip_close(za) != 0) {
    std::string text = zip_error_strerror(zip_get_error(za));
    zip_discard(za);
    return MakeFault(Fault::kInternal, "", "cannot write the zip archive (" + text + ")");
  }
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_source_stat(src, &st) != 0 || !(st.valid & ZIP_STAT_SIZE) || zip_source_open(src) != 0)
    return MakeFault(Fault::kInternal, "", "cannot read back the written zip");
  std::string bytes(static_cast<std::size_t>(st.size), '\0');
  zip_int64_t n = zip_source_read(src, bytes.data(), bytes.size());
  zip_source_close(src);
  if (n < 0 || static_cast<zip_uint64_t>(n) != st.size) return MakeFault(Fault::kInternal, "", "cannot read back the written zip");
  return bytes;
}

}  // namespace sbx::ooxml
