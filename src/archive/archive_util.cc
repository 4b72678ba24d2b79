#include "archive/archive_util.h"

#include <archive.h>

namespace sbx::archive::internal {
namespace {

// Created once and never freed: a locale object is immutable and may be used
// by any number of threads at once.
locale_t Utf8Locale() {
  static const locale_t loc = ::newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
  return loc;
}

}  // namespace

Utf8LocaleScope::Utf8LocaleScope() {
  // Without C.UTF-8 (never on glibc >= 2.35) libarchive still works, it just
  // warns on non-ASCII names; so a missing locale is not an error.
  if (locale_t loc = Utf8Locale()) previous_ = ::uselocale(loc);
}

Utf8LocaleScope::~Utf8LocaleScope() {
  if (previous_ != nullptr) ::uselocale(previous_);
}

void ArchiveReadDeleter::operator()(struct ::archive* a) const { archive_read_free(a); }

void ArchiveWriteDeleter::operator()(struct ::archive* a) const { archive_write_free(a); }

const char* ArchiveErrorText(struct ::archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "unknown libarchive error";
}

}  // namespace sbx::archive::internal
