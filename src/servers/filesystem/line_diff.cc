#include "servers/filesystem/line_diff.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "servers/filesystem/limits.h"
#include "servers/filesystem/node_errors.h"

namespace sbx::servers::filesystem {
namespace {

// Lines with their terminating '\n' (the last one may lack it).
std::vector<std::string_view> Tokenize(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t j = s.find('\n', i);
    std::size_t end = j == std::string_view::npos ? s.size() : j + 1;
    out.push_back(s.substr(i, end - i));
    i = end;
  }
  return out;
}

struct Change {
  std::size_t count;
  bool added, removed;
};

// jsdiff's change components: a linked list shared between candidate paths,
// kept in a pool with reference counts so abandoned paths are recycled.
class ComponentPool {
 public:
  struct Node {
    std::size_t count;
    bool added, removed;
    std::int64_t prev;
    std::uint32_t refs;
  };
  std::int64_t New(std::size_t count, bool added, bool removed, std::int64_t prev) {
    if (prev >= 0) ++nodes_[static_cast<std::size_t>(prev)].refs;
    Node n{count, added, removed, prev, 0};
    if (!free_.empty()) {
      std::int64_t id = free_.back();
      free_.pop_back();
      nodes_[static_cast<std::size_t>(id)] = n;
      return id;
    }
    nodes_.push_back(n);
    return static_cast<std::int64_t>(nodes_.size() - 1);
  }
  void Retain(std::int64_t id) {
    if (id >= 0) ++nodes_[static_cast<std::size_t>(id)].refs;
  }
  void Release(std::int64_t id) {
    while (id >= 0 && --nodes_[static_cast<std::size_t>(id)].refs == 0) {
      std::int64_t prev = nodes_[static_cast<std::size_t>(id)].prev;
      free_.push_back(id);
      id = prev;
    }
  }
  const Node& operator[](std::int64_t id) const { return nodes_[static_cast<std::size_t>(id)]; }

 private:
  std::vector<Node> nodes_;
  std::vector<std::int64_t> free_;
};

struct Path {
  std::int64_t old_pos = -1;
  std::int64_t last = -1;  // component id
  bool valid = false;
};

class Differ {
 public:
  Differ(const std::vector<std::string_view>& o, const std::vector<std::string_view>& n,
         std::uint64_t max_steps)
      : old_(o), new_(n), max_steps_(max_steps) {}

  std::vector<Change> Run() {
    const std::int64_t new_len = static_cast<std::int64_t>(new_.size()),
                       old_len = static_cast<std::int64_t>(old_.size());
    std::int64_t max_edit = new_len + old_len;
    Path start;
    start.valid = true;
    std::int64_t new_pos = ExtractCommon(start, 0);
    if (start.old_pos + 1 >= old_len && new_pos + 1 >= new_len) return Build(start.last);
    Set(0, start);
    std::int64_t min_diag = INT64_MIN, max_diag = INT64_MAX;
    for (std::int64_t edit = 1; edit <= max_edit; ++edit) {
      for (std::int64_t d = std::max(min_diag, -edit); d <= std::min(max_diag, edit); d += 2) {
        Step();
        Path remove_path = Take(d - 1);  // cleared from the table: nobody else uses it
        Path add_path = Get(d + 1);
        bool can_add = false;
        if (add_path.valid) {
          std::int64_t add_new_pos = add_path.old_pos - d;
          can_add = 0 <= add_new_pos && add_new_pos < new_len;
        }
        bool can_remove = remove_path.valid && remove_path.old_pos + 1 < old_len;
        if (!can_add && !can_remove) {
          Clear(d);
          Drop(remove_path);
          continue;
        }
        Path base;
        if (!can_remove || (can_add && remove_path.old_pos < add_path.old_pos)) {
          base = AddToPath(add_path, true, false, 0);
        } else {
          base = AddToPath(remove_path, false, true, 1);
        }
        Drop(remove_path);
        new_pos = ExtractCommon(base, d);
        if (base.old_pos + 1 >= old_len && new_pos + 1 >= new_len) return Build(base.last);
        bool at_old_end = base.old_pos + 1 >= old_len;
        Set(d, base);
        if (at_old_end) max_diag = std::min(max_diag, d - 1);
        if (new_pos + 1 >= new_len) min_diag = std::max(min_diag, d + 1);
      }
    }
    return {};  // unreachable: max_edit always suffices
  }

 private:
  void Step(std::uint64_t n = 1) {
    steps_ += n;
    if (steps_ > max_steps_)
      throw FsError(
          "The edited file differs too much from the original to show a diff within this server's "
          "limit of " +
          std::to_string(max_steps_) +
          " steps; nothing was written. Split the change into smaller edits.");
  }

  // Table of best paths by diagonal; each valid entry holds one reference.
  Path& Slot(std::int64_t d) {
    auto& side = d >= 0 ? pos_ : neg_;
    std::size_t i = static_cast<std::size_t>(d >= 0 ? d : -d - 1);
    if (side.size() <= i) side.resize(i + 1);
    return side[i];
  }
  Path Get(std::int64_t d) { return Slot(d); }
  Path Take(std::int64_t d) {
    Path p = Slot(d);
    Slot(d) = Path();
    return p;  // the caller now owns the table's reference
  }
  void Set(std::int64_t d, const Path& p) {
    Path& slot = Slot(d);
    if (slot.valid) pool_.Release(slot.last);
    slot = p;  // takes over p's reference
  }
  void Clear(std::int64_t d) { Set(d, Path()); }
  void Drop(const Path& p) {
    if (p.valid) pool_.Release(p.last);
  }

  // A new path one step further; holds its own reference.
  Path AddToPath(const Path& p, bool added, bool removed, std::int64_t inc) {
    Path out;
    out.valid = true;
    out.old_pos = p.old_pos + inc;
    std::int64_t last = p.last;
    if (last >= 0 && pool_[last].added == added && pool_[last].removed == removed) {
      out.last = pool_.New(pool_[last].count + 1, added, removed, pool_[last].prev);
    } else {
      out.last = pool_.New(1, added, removed, last);
    }
    pool_.Retain(out.last);
    return out;
  }

  std::int64_t ExtractCommon(Path& p, std::int64_t d) {
    const std::int64_t new_len = static_cast<std::int64_t>(new_.size()),
                       old_len = static_cast<std::int64_t>(old_.size());
    std::int64_t old_pos = p.old_pos, new_pos = old_pos - d;
    std::size_t common = 0;
    while (new_pos + 1 < new_len && old_pos + 1 < old_len &&
           old_[static_cast<std::size_t>(old_pos + 1)] ==
               new_[static_cast<std::size_t>(new_pos + 1)]) {
      ++new_pos;
      ++old_pos;
      ++common;
    }
    Step(common);
    if (common) {
      std::int64_t id = pool_.New(common, false, false, p.last);
      pool_.Retain(id);
      pool_.Release(p.last);
      p.last = id;
    }
    p.old_pos = old_pos;
    return new_pos;
  }

  std::vector<Change> Build(std::int64_t last) {
    std::vector<Change> out;
    for (std::int64_t id = last; id >= 0; id = pool_[id].prev)
      out.push_back({pool_[id].count, pool_[id].added, pool_[id].removed});
    std::reverse(out.begin(), out.end());
    return out;
  }

  const std::vector<std::string_view>& old_;
  const std::vector<std::string_view>& new_;
  ComponentPool pool_;
  std::vector<Path> pos_, neg_;
  std::uint64_t max_steps_;
  std::uint64_t steps_ = 0;
};

struct Hunk {
  long old_start, old_lines, new_start, new_lines;
  std::vector<std::string> lines;
};

}  // namespace

std::string CreateTwoFilesPatch(const std::string& old_name, const std::string& new_name,
                                const std::string& old_text, const std::string& new_text,
                                const std::string& old_header, const std::string& new_header,
                                std::uint64_t max_steps) {
  auto old_tokens = Tokenize(old_text), new_tokens = Tokenize(new_text);
  std::vector<Change> changes = Differ(old_tokens, new_tokens, max_steps).Run();

  // Each change's lines (with their '\n'), as jsdiff's splitLines would give.
  struct Block {
    bool added, removed;
    std::vector<std::string_view> lines;
  };
  std::vector<Block> blocks;
  std::size_t op = 0, np = 0;
  for (const auto& c : changes) {
    Block b{c.added, c.removed, {}};
    const auto& src = c.removed ? old_tokens : new_tokens;
    std::size_t& at = c.removed ? op : np;
    b.lines.assign(src.begin() + static_cast<std::ptrdiff_t>(at),
                   src.begin() + static_cast<std::ptrdiff_t>(at + c.count));
    at += c.count;
    if (!c.added && !c.removed) op += c.count;
    blocks.push_back(std::move(b));
  }
  blocks.push_back({false, false, {}});  // jsdiff appends an empty change to close the last hunk

  const long context = 4;
  std::vector<Hunk> hunks;
  long old_range_start = 0, new_range_start = 0, old_line = 1, new_line = 1;
  std::vector<std::string> cur;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    long n = static_cast<long>(b.lines.size());
    if (b.added || b.removed) {
      if (!old_range_start) {
        old_range_start = old_line;
        new_range_start = new_line;
        if (i > 0) {
          const auto& prev = blocks[i - 1].lines;
          std::size_t from =
              prev.size() > static_cast<std::size_t>(context) ? prev.size() - context : 0;
          cur.clear();
          for (std::size_t k = from; k < prev.size(); ++k)
            cur.push_back(" " + std::string(prev[k]));
          old_range_start -= static_cast<long>(cur.size());
          new_range_start -= static_cast<long>(cur.size());
        }
      }
      for (auto line : b.lines) cur.push_back((b.added ? "+" : "-") + std::string(line));
      (b.added ? new_line : old_line) += n;
      continue;
    }
    if (old_range_start) {
      if (n <= context * 2 && i + 2 < blocks.size()) {
        for (auto line : b.lines) cur.push_back(" " + std::string(line));
      } else {
        long size = std::min(n, context);
        for (long k = 0; k < size; ++k)
          cur.push_back(" " + std::string(b.lines[static_cast<std::size_t>(k)]));
        hunks.push_back({old_range_start, old_line - old_range_start + size, new_range_start,
                         new_line - new_range_start + size, std::move(cur)});
        old_range_start = new_range_start = 0;
        cur.clear();
      }
    }
    old_line += n;
    new_line += n;
  }

  std::string out;
  if (old_name == new_name) out += "Index: " + old_name + "\n";
  out += "===================================================================\n";
  out += "--- " + old_name + "\t" + old_header + "\n";
  out += "+++ " + new_name + "\t" + new_header + "\n";
  for (auto& h : hunks) {
    if (h.old_lines == 0) --h.old_start;
    if (h.new_lines == 0) --h.new_start;
    out += "@@ -" + std::to_string(h.old_start) + "," + std::to_string(h.old_lines) + " +" +
           std::to_string(h.new_start) + "," + std::to_string(h.new_lines) + " @@\n";
    for (const auto& line : h.lines) {
      if (!line.empty() && line.back() == '\n') {
        out.append(line, 0, line.size() - 1);
        out += "\n";
      } else {
        out += line + "\n\\ No newline at end of file\n";
      }
    }
  }
  return out;
}

}  // namespace sbx::servers::filesystem
