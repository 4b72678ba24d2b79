// Built-in number formats and the date/time rules of styles.h.
#include <array>
#include <cctype>

#include "ooxml/styles.h"

namespace sbx::ooxml {
namespace {

// Ids 0-49; "" marks the locale-dependent ids 23-36, which have no fixed code.
constexpr std::array<std::string_view, 50> kBuiltin = {
    "General", "0", "0.00", "#,##0", "#,##0.00",
    "\"$\"#,##0_);(\"$\"#,##0)", "\"$\"#,##0_);[Red](\"$\"#,##0)", "\"$\"#,##0.00_);(\"$\"#,##0.00)",
    "\"$\"#,##0.00_);[Red](\"$\"#,##0.00)", "0%", "0.00%", "0.00E+00", "# ?/?", "# ?" "?/??", "mm-dd-yy",
    "d-mmm-yy", "d-mmm", "mmm-yy", "h:mm AM/PM", "h:mm:ss AM/PM", "h:mm", "h:mm:ss", "m/d/yy h:mm",
    "", "", "", "", "", "", "", "", "", "", "", "", "", "",
    "#,##0_);(#,##0)", "#,##0_);[Red](#,##0)", "#,##0.00_);(#,##0.00)", "#,##0.00_);[Red](#,##0.00)",
    "_(* #,##0_);_(* \\(#,##0\\);_(* \"-\"_);_(@_)", "_(\"$\"* #,##0_);_(\"$\"* \\(#,##0\\);_(\"$\"* \"-\"_);_(@_)",
    "_(* #,##0.00_);_(* \\(#,##0.00\\);_(* \"-\"??_);_(@_)",
    "_(\"$\"* #,##0.00_)_(\"$\"* \\(#,##0.00\\)_(\"$\"* \"-\"??_)_(@_)", "mm:ss", "[h]:mm:ss", "mmss.0",
    "##0.0E+0", "@"};

std::string_view FirstSection(std::string_view code) { return code.substr(0, code.find(';')); }

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// A "[...]" group that names elapsed hours, minutes or seconds: [h] [hh] [m] [mm] [s] [ss].
bool IsElapsedGroup(std::string_view inner) {
  return inner == "h" || inner == "hh" || inner == "m" || inner == "mm" || inner == "s" || inner == "ss";
}

}  // namespace

std::optional<std::string_view> BuiltinNumberFormat(std::uint32_t id) {
  if (id >= kBuiltin.size() || kBuiltin[id].empty()) return std::nullopt;
  return kBuiltin[id];
}

std::optional<std::uint32_t> BuiltinNumberFormatId(std::string_view code) {
  for (std::uint32_t i = 0; i < kBuiltin.size(); ++i)
    if (!kBuiltin[i].empty() && kBuiltin[i] == code) return i;
  return std::nullopt;
}

bool IsDateFormat(std::string_view code) {
  // openpyxl strips quoted literals (shortest match) and bracket groups
  // other than elapsed-time ones, left to right, then looks for a date or
  // time letter that has some character before it other than a backslash.
  std::string_view first = FirstSection(code);
  std::string kept;
  std::size_t i = 0;
  while (i < first.size()) {
    char c = first[i];
    if (c == '"') {
      auto close = first.find('"', i + 1);
      if (close != std::string_view::npos) {
        i = close + 1;
        continue;
      }
    } else if (c == '[') {
      auto close = first.find(']', i + 1);
      if (close != std::string_view::npos) {
        std::string_view inner = first.substr(i + 1, close - i - 1);
        // The regex's lookahead: "[h]", "[hh]", "[m]", ... (case-sensitive) stay.
        bool keep = inner.size() <= 2 && !inner.empty() && IsElapsedGroup(inner);
        if (!keep) {
          i = close + 1;
          continue;
        }
      }
    }
    kept += c;
    ++i;
  }
  for (std::size_t k = 1; k < kept.size(); ++k) {
    char l = Lower(kept[k]);
    if ((l == 'd' || l == 'm' || l == 'h' || l == 'y' || l == 's') && kept[k - 1] != '\\') return true;
  }
  return false;
}

bool IsTimedeltaFormat(std::string_view code) {
  // openpyxl: [h] or [hh] optionally followed by :mm(:ss(.0*)?)?, or [m]/[mm]
  // optionally followed by :ss(.0*)?, or [s]/[ss], anywhere in the first
  // section, ignoring case. Any such bracket group is a match by itself.
  std::string_view first = FirstSection(code);
  for (std::size_t i = 0; i + 2 < first.size() + 1; ++i) {
    if (first[i] != '[') continue;
    auto close = first.find(']', i + 1);
    if (close == std::string_view::npos) return false;
    std::string inner(first.substr(i + 1, close - i - 1));
    for (char& c : inner) c = Lower(c);
    if (IsElapsedGroup(inner)) return true;
  }
  return false;
}

}  // namespace sbx::ooxml
