#include "servers/filesystem/minimatch_ast.h"

#include "servers/filesystem/minimatch_class.h"

#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <variant>
#include <vector>

namespace sbx::servers::filesystem::glob {
namespace {

using S = std::u16string;

bool IsExtglobType(char16_t c) {
  return c == u'!' || c == u'?' || c == u'+' || c == u'*' || c == u'@';
}
bool StartsWith(const S& s, const S& prefix, std::size_t at = 0) {
  return at <= s.size() && s.compare(at, prefix.size(), prefix) == 0;
}

const S kStartNoTraversal = u"(?!(?:^|/)\\.\\.?(?:$|/))";
const S kStartNoDot = u"(?!\\.)";
const S kQmark = u"[^/]";
const S kStar = u"[^/]*?";
const S kStarNoEmpty = u"[^/]+?";

struct Ast;
using Part = std::variant<S, Ast*>;

struct Source {
  S re, body;
  bool has_magic = false, uflag = false;
};

// A node of minimatch's extglob AST; owned by the Tree's arena.
struct Ast {
  char16_t type = 0;  // 0: plain sequence, else the extglob type
  Ast* root = nullptr;
  Ast* parent = nullptr;
  std::size_t parent_index = 0;
  std::vector<Part> parts;
  std::optional<bool> has_magic;
  bool uflag = false, filled_negs = false, empty_ext = false;
  std::vector<Ast*> negs;  // on the root only
  std::optional<S> str;    // toString cache
  bool dot = false;
};

class Tree {
 public:
  explicit Tree(bool dot) : dot_(dot) {}

  Ast* New(char16_t type, Ast* parent) {
    arena_.push_back(std::make_unique<Ast>());
    Ast* a = arena_.back().get();
    a->type = type;
    if (type) a->has_magic = true;
    a->parent = parent;
    a->root = parent ? parent->root : a;
    a->dot = dot_;
    if (type == u'!' && !a->root->filled_negs) a->root->negs.push_back(a);
    a->parent_index = parent ? parent->parts.size() : 0;
    return a;
  }

  static void Push(Ast* a, const Part& p) {
    if (auto* s = std::get_if<S>(&p); s && s->empty()) return;
    a->parts.push_back(p);
  }

  static S ToString(Ast* a) {
    if (a->str) return *a->str;
    S out;
    if (!a->type) {
      for (const auto& p : a->parts) out += PartString(p);
    } else {
      out = S(1, a->type) + u"(";
      for (std::size_t i = 0; i < a->parts.size(); ++i) {
        if (i) out += u"|";
        out += PartString(a->parts[i]);
      }
      out += u")";
    }
    a->str = out;
    return out;
  }

  static S PartString(const Part& p) {
    if (auto* s = std::get_if<S>(&p)) return *s;
    return ToString(std::get<Ast*>(p));
  }

  std::size_t ParseAst(const S& str, Ast* ast, std::size_t pos, int ext_depth) {
    const int kMaxDepth = 2;  // maxExtglobRecursion
    bool escaping = false, in_brace = false, brace_neg = false;
    std::size_t brace_start = 0;
    auto bracket = [&](char16_t c, std::size_t i, S& acc) {
      // i is already past c
      if (in_brace) {
        if (i == brace_start + 1) {
          if (c == u'^' || c == u'!') brace_neg = true;
        } else if (c == u']' && !(i == brace_start + 2 && brace_neg)) {
          in_brace = false;
        }
        acc += c;
        return true;
      }
      if (c == u'[') {
        in_brace = true;
        brace_start = i;
        brace_neg = false;
        acc += c;
        return true;
      }
      return false;
    };
    if (!ast->type) {
      std::size_t i = pos;
      S acc;
      while (i < str.size()) {
        char16_t c = str[i++];
        if (escaping || c == u'\\') {
          escaping = !escaping;
          acc += c;
          continue;
        }
        if (bracket(c, i, acc)) continue;
        bool recurse =
            IsExtglobType(c) && i < str.size() && str[i] == u'(' && ext_depth <= kMaxDepth;
        if (recurse) {
          Push(ast, acc);
          acc.clear();
          Ast* ext = New(c, ast);
          i = ParseAst(str, ext, i, ext_depth + 1);
          Push(ast, ext);
          continue;
        }
        acc += c;
      }
      Push(ast, acc);
      return i;
    }
    std::size_t i = pos + 1;
    Ast* part = New(0, ast);
    std::vector<Ast*> parts;
    S acc;
    while (i < str.size()) {
      char16_t c = str[i++];
      if (escaping || c == u'\\') {
        escaping = !escaping;
        acc += c;
        continue;
      }
      if (bracket(c, i, acc)) continue;
      bool recurse = IsExtglobType(c) && i < str.size() && str[i] == u'(' &&
                     (ext_depth <= kMaxDepth || CanAdoptType(ast, c, AdoptAny()));
      if (recurse) {
        int add = CanAdoptType(ast, c, AdoptAny()) ? 0 : 1;
        Push(part, acc);
        acc.clear();
        Ast* ext = New(c, part);
        Push(part, ext);
        i = ParseAst(str, ext, i, ext_depth + add);
        continue;
      }
      if (c == u'|') {
        Push(part, acc);
        acc.clear();
        parts.push_back(part);
        part = New(0, ast);
        continue;
      }
      if (c == u')') {
        if (acc.empty() && ast->parts.empty()) ast->empty_ext = true;
        Push(part, acc);
        acc.clear();
        for (Ast* p : parts) Push(ast, p);
        Push(ast, part);
        return i;
      }
      acc += c;
    }
    // Unfinished extglob: the rest is literal text.
    ast->type = 0;
    ast->has_magic.reset();
    ast->parts = {str.substr(pos - 1)};
    return i;
  }

  using AdoptMap = std::map<char16_t, S>;
  static const AdoptMap& Adopt() {
    static const AdoptMap m = {
        {u'!', u"@"}, {u'?', u"?@"}, {u'@', u"@"}, {u'*', u"*+?@"}, {u'+', u"+@"}};
    return m;
  }
  static const AdoptMap& AdoptWithSpace() {
    static const AdoptMap m = {{u'!', u"?"}, {u'@', u"?"}, {u'+', u"?*"}};
    return m;
  }
  static const AdoptMap& AdoptAny() {
    static const AdoptMap m = {
        {u'!', u"?@"}, {u'?', u"?@"}, {u'@', u"?@"}, {u'*', u"*+?@"}, {u'+', u"+@?*"}};
    return m;
  }
  static bool CanAdoptType(const Ast* a, char16_t c, const AdoptMap& m) {
    auto it = m.find(a->type);
    return it != m.end() && it->second.find(c) != S::npos;
  }
  static Ast* OnlyExtglobGrandchild(const Ast* a, const Part& child) {
    auto* const* cp = std::get_if<Ast*>(&child);
    if (!cp) return nullptr;
    const Ast* c = *cp;
    if (c->type || c->parts.size() != 1 || !a->type) return nullptr;
    auto* const* gp = std::get_if<Ast*>(&c->parts[0]);
    if (!gp || !(*gp)->type) return nullptr;
    return *gp;
  }
  static bool CanAdopt(const Ast* a, const Part& child, const AdoptMap& m) {
    Ast* gc = OnlyExtglobGrandchild(a, child);
    return gc && CanAdoptType(a, gc->type, m);
  }
  static char16_t UsurpType(char16_t parent, char16_t child) {
    static const std::map<char16_t, std::map<char16_t, char16_t>> m = {
        {u'!', {{u'!', u'@'}}},
        {u'?', {{u'*', u'*'}, {u'+', u'*'}}},
        {u'@', {{u'!', u'!'}, {u'?', u'?'}, {u'@', u'@'}, {u'*', u'*'}, {u'+', u'+'}}},
        {u'+', {{u'?', u'*'}, {u'*', u'*'}}},
    };
    auto it = m.find(parent);
    if (it == m.end()) return 0;
    auto jt = it->second.find(child);
    return jt == it->second.end() ? 0 : jt->second;
  }
  static bool CanUsurp(const Ast* a, const Part& child) {
    if (a->parts.size() != 1) return false;
    Ast* gc = OnlyExtglobGrandchild(a, child);
    return gc && UsurpType(a->type, gc->type) != 0;
  }
  static void AdoptAt(Ast* a, std::size_t index) {
    Ast* child = std::get<Ast*>(a->parts[index]);
    Ast* gc = std::get<Ast*>(child->parts[0]);
    std::vector<Part> moved = gc->parts;
    a->parts.erase(a->parts.begin() + static_cast<std::ptrdiff_t>(index));
    a->parts.insert(a->parts.begin() + static_cast<std::ptrdiff_t>(index), moved.begin(),
                    moved.end());
    for (auto& p : moved)
      if (auto* x = std::get_if<Ast*>(&p)) (*x)->parent = a;
    a->str.reset();
  }
  void AdoptWithSpaceAt(Ast* a, std::size_t index) {
    Ast* child = std::get<Ast*>(a->parts[index]);
    Ast* gc = std::get<Ast*>(child->parts[0]);
    Ast* blank = New(0, gc);
    blank->parts.push_back(S());
    Push(gc, blank);
    AdoptAt(a, index);
  }
  static void Usurp(Ast* a, const Part& child) {
    Ast* gc = std::get<Ast*>(std::get<Ast*>(child)->parts[0]);
    char16_t nt = UsurpType(a->type, gc->type);
    a->parts = gc->parts;
    for (auto& p : a->parts)
      if (auto* x = std::get_if<Ast*>(&p)) (*x)->parent = a;
    a->type = nt;
    a->str.reset();
    a->empty_ext = false;
  }

  void Flatten(Ast* a) {
    if (!a->type) {
      for (auto& p : a->parts)
        if (auto* x = std::get_if<Ast*>(&p)) Flatten(*x);
    } else {
      int iterations = 0;
      bool done = false;
      do {
        done = true;
        for (std::size_t i = 0; i < a->parts.size(); ++i) {
          auto* cp = std::get_if<Ast*>(&a->parts[i]);
          if (!cp) continue;
          Flatten(*cp);
          Part c = a->parts[i];
          if (CanAdopt(a, c, Adopt())) {
            done = false;
            AdoptAt(a, i);
          } else if (CanAdopt(a, c, AdoptWithSpace())) {
            done = false;
            AdoptWithSpaceAt(a, i);
          } else if (CanUsurp(a, c)) {
            done = false;
            Usurp(a, c);
          }
        }
      } while (!done && ++iterations < 10);
    }
    a->str.reset();
  }

  Ast* Clone(const Ast* a, Ast* parent) {
    Ast* c = New(a->type, parent);
    for (const auto& p : a->parts) CopyIn(c, p);
    return c;
  }
  void CopyIn(Ast* a, const Part& p) {
    if (auto* s = std::get_if<S>(&p)) {
      Push(a, *s);
    } else {
      Push(a, Clone(std::get<Ast*>(p), a));
    }
  }

  void FillNegs(Ast* root) {
    if (root->filled_negs) return;
    ToString(root);
    root->filled_negs = true;
    while (!root->negs.empty()) {
      Ast* n = root->negs.back();
      root->negs.pop_back();
      if (n->type != u'!') continue;
      Ast* p = n;
      Ast* pp = p->parent;
      while (pp) {
        for (std::size_t i = p->parent_index + 1; !pp->type && i < pp->parts.size(); ++i) {
          for (const auto& part : n->parts) {
            // Extglob parts are always ASTs.
            Ast* target = std::get<Ast*>(part);
            CopyIn(target, pp->parts[i]);
          }
        }
        p = pp;
        pp = p->parent;
      }
    }
  }

  static bool IsStart(const Ast* a) {
    if (a->root == a) return true;
    if (!IsStart(a->parent)) return false;
    if (a->parent_index == 0) return true;
    for (std::size_t i = 0; i < a->parent_index; ++i) {
      if (i >= a->parent->parts.size()) return false;
      auto* x = std::get_if<Ast*>(&a->parent->parts[i]);
      if (!(x && (*x)->type == u'!')) return false;
    }
    return true;
  }
  static bool IsEnd(const Ast* a) {
    if (a->root == a) return true;
    if (a->parent->type == u'!') return true;
    if (!IsEnd(a->parent)) return false;
    if (!a->type) return IsEnd(a->parent);
    return a->parent_index + 1 == a->parent->parts.size();
  }

  static Source ParseGlob(const S& glob, bool has_magic, bool no_empty) {
    static const S kReSpecials = u"().*{}+?[]^$\\!";
    bool escaping = false, uflag = false, in_star = false;
    S re;
    bool all_stars = !glob.empty() && glob.find_first_not_of(u'*') == S::npos;
    for (std::size_t i = 0; i < glob.size(); ++i) {
      char16_t c = glob[i];
      if (escaping) {
        escaping = false;
        if (kReSpecials.find(c) != S::npos) re += u'\\';
        re += c;
        continue;
      }
      if (c == u'*') {
        if (in_star) continue;
        in_star = true;
        re += no_empty && all_stars ? kStarNoEmpty : kStar;
        has_magic = true;
        continue;
      }
      in_star = false;
      if (c == u'\\') {
        if (i == glob.size() - 1) {
          re += u"\\\\";
        } else {
          escaping = true;
        }
        continue;
      }
      if (c == u'[') {
        ClassResult cls = ParseClass(glob, i);
        if (cls.consumed) {
          re += cls.src;
          uflag = uflag || cls.uflag;
          i += cls.consumed - 1;
          has_magic = has_magic || cls.magic;
          continue;
        }
      }
      if (c == u'?') {
        re += kQmark;
        has_magic = true;
        continue;
      }
      re += RegExpEscape(S(1, c));
    }
    return {re, Unescape(glob), has_magic, uflag};
  }

  S PartsToRegExp(Ast* a, std::optional<bool> dot) {
    S out;
    bool first = true;
    bool se = IsStart(a) && IsEnd(a);
    for (auto& p : a->parts) {
      Source s = ToRegExpSource(std::get<Ast*>(p), dot);
      a->uflag = a->uflag || s.uflag;
      if (se && s.re.empty()) continue;
      if (!first) out += u"|";
      out += s.re;
      first = false;
    }
    return out;
  }

  Source ToRegExpSource(Ast* a, std::optional<bool> allow_dot) {
    bool dot = allow_dot.has_value() ? *allow_dot : a->dot;
    if (a->root == a) {
      Flatten(a);
      FillNegs(a);
    }
    if (!a->type) {
      bool no_empty = IsStart(a) && IsEnd(a);
      for (const auto& p : a->parts)
        if (std::holds_alternative<Ast*>(p)) no_empty = false;
      S src;
      for (const auto& p : a->parts) {
        Source s;
        if (auto* str = std::get_if<S>(&p)) {
          s = ParseGlob(*str, a->has_magic.value_or(false), no_empty);
        } else {
          s = ToRegExpSource(std::get<Ast*>(p), allow_dot);
        }
        a->has_magic = a->has_magic.value_or(false) || s.has_magic;
        a->uflag = a->uflag || s.uflag;
        src += s.re;
      }
      S start;
      if (IsStart(a) && !a->parts.empty() && std::holds_alternative<S>(a->parts[0])) {
        const S& first = std::get<S>(a->parts[0]);
        bool dot_trav_allowed = a->parts.size() == 1 && (first == u"." || first == u"..");
        if (!dot_trav_allowed) {
          auto aps = [](const S& s, std::size_t i) {
            return i < s.size() && (s[i] == u'[' || s[i] == u'.');
          };
          bool need_no_trav = (dot && aps(src, 0)) || (StartsWith(src, u"\\.") && aps(src, 2)) ||
                              (StartsWith(src, u"\\.\\.") && aps(src, 4));
          bool need_no_dot = !dot && !allow_dot.value_or(false) && aps(src, 0);
          start = need_no_trav ? kStartNoTraversal : need_no_dot ? kStartNoDot : S();
        }
      }
      S end;
      if (IsEnd(a) && a->root->filled_negs && a->parent && a->parent->type == u'!')
        end = u"(?:$|\\/)";
      a->has_magic = a->has_magic.value_or(false);
      return {start + src + end, Unescape(src), *a->has_magic, a->uflag};
    }
    bool repeated = a->type == u'*' || a->type == u'+';
    S start = a->type == u'!' ? u"(?:(?!(?:" : u"(?:";
    S body = PartsToRegExp(a, dot);
    if (IsStart(a) && IsEnd(a) && body.empty() && a->type != u'!') {
      S s = ToString(a);
      a->parts = {s};
      a->type = 0;
      a->has_magic.reset();
      return {s, Unescape(ToString(a)), false, false};
    }
    S body_dot_allowed =
        !repeated || allow_dot.value_or(false) || dot ? S() : PartsToRegExp(a, true);
    if (body_dot_allowed == body) body_dot_allowed.clear();
    if (!body_dot_allowed.empty()) body = u"(?:" + body + u")(?:" + body_dot_allowed + u")*?";
    S final;
    if (a->type == u'!' && a->empty_ext) {
      final = (IsStart(a) && !dot ? kStartNoDot : S()) + kStarNoEmpty;
    } else {
      S close = a->type == u'!'
                    ? u"))" +
                          (IsStart(a) && !dot && !allow_dot.value_or(false) ? kStartNoDot : S()) +
                          kStar + u")"
                : a->type == u'@'                              ? S(u")")
                : a->type == u'?'                              ? S(u")?")
                : a->type == u'+' && !body_dot_allowed.empty() ? S(u")")
                : a->type == u'*' && !body_dot_allowed.empty() ? S(u")?")
                                                               : u")" + S(1, a->type);
      final = start + body + close;
    }
    a->has_magic = a->has_magic.value_or(false);
    return {final, Unescape(body), *a->has_magic, a->uflag};
  }

 private:
  bool dot_;
  std::vector<std::unique_ptr<Ast>> arena_;
};

}  // namespace

SegmentPattern CompileSegment(const std::u16string& segment, bool dot) {
  Tree tree(dot);
  Ast* root = tree.New(0, nullptr);
  tree.ParseAst(segment, root, 0, 0);
  Source s = tree.ToRegExpSource(root, std::nullopt);
  SegmentPattern out;
  out.magic = s.has_magic || root->has_magic.value_or(false);
  if (!out.magic) {
    out.literal = s.body;
    return out;
  }
  out.source = s.re;
  out.unicode = s.uflag;
  return out;
}

}  // namespace sbx::servers::filesystem::glob
