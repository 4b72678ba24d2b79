#include "servers/filesystem/glob_regex_syntax.h"

#include <unicode/uchar.h>

#include <algorithm>

#include "js_text/string.h"

namespace sbx::servers::filesystem::regex_syntax {
namespace {

std::uint32_t CategoryMask(const std::string& name) {
  struct Cat {
    const char* name;
    std::uint32_t mask;
  };
  auto bit = [](UCharCategory c) { return 1u << c; };
  const std::uint32_t L = bit(U_UPPERCASE_LETTER) | bit(U_LOWERCASE_LETTER) |
                          bit(U_TITLECASE_LETTER) | bit(U_MODIFIER_LETTER) | bit(U_OTHER_LETTER);
  const std::uint32_t N = bit(U_DECIMAL_DIGIT_NUMBER) | bit(U_LETTER_NUMBER) | bit(U_OTHER_NUMBER);
  const std::uint32_t P = bit(U_CONNECTOR_PUNCTUATION) | bit(U_DASH_PUNCTUATION) |
                          bit(U_START_PUNCTUATION) | bit(U_END_PUNCTUATION) |
                          bit(U_INITIAL_PUNCTUATION) | bit(U_FINAL_PUNCTUATION) |
                          bit(U_OTHER_PUNCTUATION);
  const std::uint32_t Z =
      bit(U_SPACE_SEPARATOR) | bit(U_LINE_SEPARATOR) | bit(U_PARAGRAPH_SEPARATOR);
  const std::uint32_t C = bit(U_CONTROL_CHAR) | bit(U_FORMAT_CHAR) | bit(U_SURROGATE) |
                          bit(U_PRIVATE_USE_CHAR) | bit(U_GENERAL_OTHER_TYPES);
  const std::uint32_t S =
      bit(U_MATH_SYMBOL) | bit(U_CURRENCY_SYMBOL) | bit(U_MODIFIER_SYMBOL) | bit(U_OTHER_SYMBOL);
  const std::uint32_t M =
      bit(U_NON_SPACING_MARK) | bit(U_ENCLOSING_MARK) | bit(U_COMBINING_SPACING_MARK);
  const Cat cats[] = {
      {"L", L},
      {"Lu", bit(U_UPPERCASE_LETTER)},
      {"Ll", bit(U_LOWERCASE_LETTER)},
      {"Lt", bit(U_TITLECASE_LETTER)},
      {"Lm", bit(U_MODIFIER_LETTER)},
      {"Lo", bit(U_OTHER_LETTER)},
      {"N", N},
      {"Nd", bit(U_DECIMAL_DIGIT_NUMBER)},
      {"Nl", bit(U_LETTER_NUMBER)},
      {"No", bit(U_OTHER_NUMBER)},
      {"P", P},
      {"Pc", bit(U_CONNECTOR_PUNCTUATION)},
      {"Pd", bit(U_DASH_PUNCTUATION)},
      {"Ps", bit(U_START_PUNCTUATION)},
      {"Pe", bit(U_END_PUNCTUATION)},
      {"Pi", bit(U_INITIAL_PUNCTUATION)},
      {"Pf", bit(U_FINAL_PUNCTUATION)},
      {"Po", bit(U_OTHER_PUNCTUATION)},
      {"Z", Z},
      {"Zs", bit(U_SPACE_SEPARATOR)},
      {"Zl", bit(U_LINE_SEPARATOR)},
      {"Zp", bit(U_PARAGRAPH_SEPARATOR)},
      {"C", C},
      {"Cc", bit(U_CONTROL_CHAR)},
      {"Cf", bit(U_FORMAT_CHAR)},
      {"Cs", bit(U_SURROGATE)},
      {"Co", bit(U_PRIVATE_USE_CHAR)},
      {"Cn", bit(U_GENERAL_OTHER_TYPES)},
      {"S", S},
      {"Sm", bit(U_MATH_SYMBOL)},
      {"Sc", bit(U_CURRENCY_SYMBOL)},
      {"Sk", bit(U_MODIFIER_SYMBOL)},
      {"So", bit(U_OTHER_SYMBOL)},
      {"M", M},
      {"Mn", bit(U_NON_SPACING_MARK)},
      {"Me", bit(U_ENCLOSING_MARK)},
      {"Mc", bit(U_COMBINING_SPACING_MARK)},
  };
  for (const auto& c : cats)
    if (name == c.name) return c.mask;
  return 0;
}

using Node = JsRegex::Node;

class Parser {
 public:
  Parser(const Units& src, bool unicode, int& memo_count)
      : s_(src), u_(unicode), memo_(memo_count) {}

  std::unique_ptr<Node> Parse() {
    auto node = Disjunction();
    if (i_ < s_.size()) throw SyntaxError{s_[i_] == ')' ? "Unmatched ')'" : "Unexpected character"};
    Number(*node);
    return node;
  }

 private:
  // Every composite node gets a memo slot: each (node, position) is then
  // evaluated once, which is what keeps nested repetition polynomial.
  void Number(Node& n) {
    if (n.kind == Node::kSeq || n.kind == Node::kAlt || n.kind == Node::kRepeat ||
        n.kind == Node::kLook)
      n.memo = memo_++;
    for (auto& c : n.children) Number(*c);
  }

  bool At(char32_t c) const { return i_ < s_.size() && s_[i_] == c; }
  bool AtStr(const char* str) const {
    std::size_t k = i_;
    for (; *str; ++str, ++k)
      if (k >= s_.size() || s_[k] != static_cast<char32_t>(*str)) return false;
    return true;
  }

  static std::unique_ptr<Node> Make(Node::Kind kind) {
    auto n = std::make_unique<Node>();
    n->kind = kind;
    return n;
  }
  static std::unique_ptr<Node> CharNode(ClassSet set) {
    auto n = Make(Node::kChar);
    n->set = std::move(set);
    return n;
  }
  static ClassSet Single(char32_t c) {
    ClassSet set;
    set.ranges.push_back({c, c});
    return set;
  }

  std::unique_ptr<Node> Disjunction() {
    auto alt = Make(Node::kAlt);
    alt->children.push_back(Alternative());
    while (At('|')) {
      ++i_;
      alt->children.push_back(Alternative());
    }
    if (alt->children.size() == 1) return std::move(alt->children[0]);
    return alt;
  }

  std::unique_ptr<Node> Alternative() {
    auto seq = Make(Node::kSeq);
    while (i_ < s_.size() && !At('|') && !At(')')) seq->children.push_back(Term());
    return seq;
  }

  std::unique_ptr<Node> Term() {
    char32_t c = s_[i_];
    std::unique_ptr<Node> atom;
    bool quantifiable = true;
    if (c == '^') {
      ++i_;
      return Make(Node::kBol);
    }
    if (c == '$') {
      ++i_;
      return Make(Node::kEol);
    }
    if (c == '(') {
      ++i_;
      bool look = false, negative = false;
      if (AtStr("?:")) {
        i_ += 2;
      } else if (AtStr("?=") || AtStr("?!")) {
        look = true;
        negative = s_[i_ + 1] == '!';
        i_ += 2;
      } else if (At('?')) {
        throw SyntaxError{"Invalid group"};
      }
      auto inner = Disjunction();
      if (!At(')')) throw SyntaxError{"Unterminated group"};
      ++i_;
      if (look) {
        atom = Make(Node::kLook);
        atom->negative = negative;
        atom->children.push_back(std::move(inner));
        quantifiable = !u_;  // Annex B allows quantified lookaheads without u
      } else {
        atom = std::move(inner);
      }
    } else if (c == '[') {
      ++i_;
      atom = CharNode(Class());
    } else if (c == '.') {
      ++i_;
      ClassSet dot;
      dot.negate = true;
      for (char32_t lt : {0x0Au, 0x0Du, 0x2028u, 0x2029u}) dot.ranges.push_back({lt, lt});
      atom = CharNode(std::move(dot));
    } else if (c == '\\') {
      ++i_;
      if (At('b') || At('B')) {
        bool b = At('b');
        ++i_;
        return Make(b ? Node::kWordBoundary : Node::kNotWordBoundary);
      }
      atom = CharNode(AtomEscape(false));
    } else if (c == '*' || c == '+' || c == '?') {
      throw SyntaxError{"Nothing to repeat"};
    } else if (c == '{') {
      if (u_)
        throw SyntaxError{IsQuantifierBraces() ? "Nothing to repeat" : "Lone quantifier brackets"};
      if (IsQuantifierBraces()) throw SyntaxError{"Nothing to repeat"};
      ++i_;
      atom = CharNode(Single(c));
    } else if ((c == '}' || c == ']') && u_) {
      throw SyntaxError{"Lone quantifier brackets"};
    } else {
      ++i_;
      atom = CharNode(Single(c));
    }
    if (!quantifiable) return atom;
    return Quantified(std::move(atom));
  }

  bool IsQuantifierBraces() const {
    std::size_t k = i_ + 1;
    std::size_t start = k;
    while (k < s_.size() && s_[k] >= '0' && s_[k] <= '9') ++k;
    if (k == start) return false;
    if (k < s_.size() && s_[k] == ',') {
      ++k;
      while (k < s_.size() && s_[k] >= '0' && s_[k] <= '9') ++k;
    }
    return k < s_.size() && s_[k] == '}';
  }

  static int Number(const Units& s, std::size_t& k) {
    long v = 0;
    while (k < s.size() && s[k] >= '0' && s[k] <= '9') {
      v = std::min<long>(v * 10 + static_cast<long>(s[k] - '0'), 1L << 30);
      ++k;
    }
    return static_cast<int>(v);
  }

  std::unique_ptr<Node> Quantified(std::unique_ptr<Node> atom) {
    if (i_ >= s_.size()) return atom;
    int min = 0, max = -1;
    char32_t c = s_[i_];
    if (c == '*') {
      ++i_;
    } else if (c == '+') {
      min = 1;
      ++i_;
    } else if (c == '?') {
      max = 1;
      ++i_;
    } else if (c == '{') {
      if (!IsQuantifierBraces()) {
        if (u_) throw SyntaxError{"Incomplete quantifier"};
        return atom;
      }
      std::size_t k = i_ + 1;
      min = Number(s_, k);
      max = min;
      if (s_[k] == ',') {
        ++k;
        max = (s_[k] == '}') ? -1 : Number(s_, k);
      }
      if (max >= 0 && max < min) throw SyntaxError{"numbers out of order in {} quantifier"};
      i_ = k + 1;
    } else {
      return atom;
    }
    if (At('?')) ++i_;  // laziness does not change whether a match exists
    auto rep = Make(Node::kRepeat);
    rep->min = min;
    rep->max = max;
    rep->children.push_back(std::move(atom));
    return rep;
  }

  bool ReadHex(std::size_t digits, char32_t& out) {
    if (i_ + digits > s_.size()) return false;
    char32_t v = 0;
    for (std::size_t k = 0; k < digits; ++k) {
      char32_t h = s_[i_ + k];
      int d = h >= '0' && h <= '9'   ? static_cast<int>(h - '0')
              : h >= 'a' && h <= 'f' ? static_cast<int>(h - 'a' + 10)
              : h >= 'A' && h <= 'F' ? static_cast<int>(h - 'A' + 10)
                                     : -1;
      if (d < 0) return false;
      v = v * 16 + static_cast<char32_t>(d);
    }
    i_ += digits;
    out = v;
    return true;
  }

  // After a backslash (inside a class when `in_class`).
  ClassSet AtomEscape(bool in_class) {
    if (i_ >= s_.size()) throw SyntaxError{"\\ at end of pattern"};
    char32_t c = s_[i_++];
    ClassSet set;
    switch (c) {
      case 'd':
      case 'w':
      case 's':
        set.builtin = static_cast<int>(c);
        return set;
      case 'D':
      case 'W':
      case 'S': {
        ClassSet inner;
        inner.builtin = static_cast<int>(c - 'A' + 'a');
        set.excluded.push_back(std::move(inner));
        return set;
      }
      case 't':
        return Single('\t');
      case 'n':
        return Single('\n');
      case 'v':
        return Single('\v');
      case 'f':
        return Single('\f');
      case 'r':
        return Single('\r');
      case 'c':
        if (i_ < s_.size() &&
            ((s_[i_] >= 'a' && s_[i_] <= 'z') || (s_[i_] >= 'A' && s_[i_] <= 'Z')))
          return Single(s_[i_++] % 32);
        if (u_) throw SyntaxError{in_class ? "Invalid class escape" : "Invalid unicode escape"};
        --i_;
        return Single('\\');
      case '0':
        if (!(i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9')) return Single(0);
        break;
      case 'x': {
        char32_t v;
        if (ReadHex(2, v)) return Single(v);
        if (u_) throw SyntaxError{"Invalid escape"};
        return Single('x');
      }
      case 'u': {
        char32_t v;
        if (u_ && At('{')) {
          std::size_t k = i_ + 1;
          char32_t acc = 0;
          bool any = false;
          while (k < s_.size() && s_[k] != '}') {
            char32_t h = s_[k];
            int d = h >= '0' && h <= '9'   ? static_cast<int>(h - '0')
                    : h >= 'a' && h <= 'f' ? static_cast<int>(h - 'a' + 10)
                    : h >= 'A' && h <= 'F' ? static_cast<int>(h - 'A' + 10)
                                           : -1;
            if (d < 0 || acc > 0x10FFFF) throw SyntaxError{"Invalid Unicode escape"};
            acc = acc * 16 + static_cast<char32_t>(d);
            any = true;
            ++k;
          }
          if (!any || k >= s_.size() || acc > 0x10FFFF) throw SyntaxError{"Invalid Unicode escape"};
          i_ = k + 1;
          return Single(acc);
        }
        if (ReadHex(4, v)) {
          if (u_ && v >= 0xD800 && v <= 0xDBFF && AtStr("\\u")) {
            std::size_t save = i_;
            i_ += 2;
            char32_t lo;
            if (ReadHex(4, lo) && lo >= 0xDC00 && lo <= 0xDFFF)
              return Single(0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00));
            i_ = save;
          }
          return Single(v);
        }
        if (u_) throw SyntaxError{"Invalid Unicode escape"};
        return Single('u');
      }
      case 'p':
      case 'P':
        if (u_) {
          if (!At('{')) throw SyntaxError{"Invalid property name"};
          std::size_t k = i_ + 1;
          std::string name;
          while (k < s_.size() && s_[k] != '}') name.push_back(static_cast<char>(s_[k++]));
          std::uint32_t mask = CategoryMask(name);
          if (k >= s_.size() || mask == 0)
            throw SyntaxError{in_class ? "Invalid property name in character class"
                                       : "Invalid property name"};
          i_ = k + 1;
          ClassSet prop;
          prop.categories = mask;
          if (c == 'p') return prop;
          set.excluded.push_back(std::move(prop));
          return set;
        }
        return Single(c);
      default:
        break;
    }
    if (c >= '1' && c <= '9') {
      if (u_) throw SyntaxError{"Invalid escape"};
      return Single(c);  // no groups are referenced by the patterns built here
    }
    if (u_) {
      static const std::u32string kSyntax = U"^$\\.*+?()[]{}|/";
      bool ok = kSyntax.find(c) != std::u32string::npos || (in_class && c == '-');
      if (!ok) throw SyntaxError{in_class ? "Invalid class escape" : "Invalid escape"};
    }
    return Single(c);
  }

  // After '['.
  ClassSet Class() {
    ClassSet set;
    if (At('^')) {
      set.negate = true;
      ++i_;
    }
    auto atom = [&](bool& single, char32_t& value) -> ClassSet {
      single = false;
      if (s_[i_] == '\\') {
        ++i_;
        if (At('b')) {
          ++i_;
          single = true;
          value = 8;
          return {};
        }
        if (!u_ && At('-')) {
          ++i_;
          single = true;
          value = '-';
          return {};
        }
        ClassSet e = AtomEscape(true);
        if (e.ranges.size() == 1 && e.ranges[0].first == e.ranges[0].second && !e.categories &&
            e.excluded.empty() && !e.builtin) {
          single = true;
          value = e.ranges[0].first;
        }
        return e;
      }
      single = true;
      value = s_[i_++];
      return {};
    };
    while (true) {
      if (i_ >= s_.size()) throw SyntaxError{"Unterminated character class"};
      if (At(']')) {
        ++i_;
        return set;
      }
      bool single1;
      char32_t v1 = 0;
      ClassSet e1 = atom(single1, v1);
      if (At('-') && i_ + 1 < s_.size() && s_[i_ + 1] != ']') {
        ++i_;
        bool single2;
        char32_t v2 = 0;
        ClassSet e2 = atom(single2, v2);
        if (single1 && single2) {
          if (v1 > v2) throw SyntaxError{"Range out of order in character class"};
          set.ranges.push_back({v1, v2});
          continue;
        }
        if (u_) throw SyntaxError{"Invalid character class"};
        Add(set, single1, v1, e1);
        set.ranges.push_back({'-', '-'});
        Add(set, single2, v2, e2);
        continue;
      }
      Add(set, single1, v1, e1);
    }
  }

  static void Add(ClassSet& set, bool single, char32_t v, ClassSet& e) {
    if (single) {
      set.ranges.push_back({v, v});
      return;
    }
    // A class escape: fold it in as one more alternative.
    // A class escape (\d, \p{…}, …): `excluded` holds sets whose complement
    // counts, so add the complement of the escape's set.
    ClassSet complement;
    complement.excluded.push_back(std::move(e));
    set.excluded.push_back(std::move(complement));
  }

  const Units& s_;
  bool u_;
  int& memo_;
  std::size_t i_ = 0;
};

}  // namespace

bool IsWordChar(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool ClassSet::Contains(char32_t c) const {
  bool in = false;
  for (const auto& [lo, hi] : ranges) in = in || (c >= lo && c <= hi);
  if (!in && categories) in = (categories >> u_charType(static_cast<UChar32>(c))) & 1u;
  if (!in && builtin == 'd') in = c >= '0' && c <= '9';
  if (!in && builtin == 'w') in = IsWordChar(c);
  if (!in && builtin == 's') in = js::IsWhitespace(c);
  for (std::size_t i = 0; !in && i < excluded.size(); ++i) in = !excluded[i].Contains(c);
  return in != negate;
}

Units ToUnits(const std::u16string& s, bool unicode) {
  Units out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char32_t c = s[i];
    if (unicode && c >= 0xD800 && c <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 &&
        s[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (s[i + 1] - 0xDC00);
      ++i;
    }
    out.push_back(c);
  }
  return out;
}

std::unique_ptr<Node> Parse(const Units& source, bool unicode, int& memo_count) {
  memo_count = 0;
  return Parser(source, unicode, memo_count).Parse();
}

}  // namespace sbx::servers::filesystem::regex_syntax
