// servers-tree: the workspace every server of the `servers` benchmark is
// called on (ours at /data, the upstreams at the host copy), so each
// representative call finds small, fixed data:
//   file-4k.txt, dir-1000/      the filesystem benchmark's tree (mcp-tree)
//   repo/                       a git repository: 20 files, 3 commits, clean
//   repos/memory_mcp_server/memories-for-mcp.json
//                               a knowledge graph of 100 entities and 100
//                               relations (localmemory's default file)
//   arxiv-store/<id>/metadata.json   a paper store of 50 papers
//   code/hello.py               a small script (code-executor)
//   doc-100.pdf                 100 pages of Helvetica text, 40 lines each
//                               (pdf-tools)
//   book-10k.xlsx               one sheet "Data" of 100 x 100 cells: numbers,
//                               text, a formula per row (excel); written by
//                               Debian's openpyxl, the library graders read with
// Everything is generated, deterministic and a few hundred KiB at most.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "measure.h"

namespace bench {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

void Write(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f.flush()) throw std::runtime_error("cannot write " + path);
}

void Git(const std::string& repo, std::vector<std::string> args) {
  // -c settings so that the host's and the user's git config play no part.
  std::vector<std::string> argv = {"git", "-C", repo, "-c", "user.name=sandboxd bench", "-c",
                                   "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"};
  argv.insert(argv.end(), args.begin(), args.end());
  int status = Wait(Spawn(argv));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("git " + args.at(0) + " failed");
}

// A repository whose git_status is "nothing to commit": 20 source files and
// a README in 3 commits with fixed dates (so the same objects every run).
void MakeRepo(const std::string& dir) {
  fs::create_directories(dir + "/src");
  Git(dir, {"init", "-q", "-b", "main"});
  ::setenv("GIT_AUTHOR_DATE", "2025-01-01T00:00:00Z", 1);
  ::setenv("GIT_COMMITTER_DATE", "2025-01-01T00:00:00Z", 1);
  Write(dir + "/README.md", "# bench repo\n\nA small repository for the git_status benchmark.\n");
  Git(dir, {"add", "README.md"});
  Git(dir, {"commit", "-q", "-m", "readme"});
  for (int i = 0; i < 20; ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "%s/src/module_%02d.py", dir.c_str(), i);
    std::string body;
    for (int line = 0; line < 20; ++line) body += "def f" + std::to_string(line) + "():\n    return " + std::to_string(i * line) + "\n";
    Write(name, body);
  }
  Git(dir, {"add", "src"});
  Git(dir, {"commit", "-q", "-m", "modules"});
  Write(dir + "/README.md", "# bench repo\n\nA small repository for the git_status benchmark.\n\nSecond commit.\n");
  Git(dir, {"commit", "-q", "-a", "-m", "readme again"});
  ::unsetenv("GIT_AUTHOR_DATE");
  ::unsetenv("GIT_COMMITTER_DATE");
}

// server-memory's JSON Lines format: one entity or relation per line, keys
// in the order it writes them.
void MakeMemory(const std::string& file) {
  fs::create_directories(fs::path(file).parent_path());
  const char* types[] = {"person", "project", "organization", "topic"};
  std::string text;
  char name[32], other[32];
  for (int i = 0; i < 100; ++i) {
    std::snprintf(name, sizeof name, "entity-%03d", i);
    nlohmann::ordered_json e = {{"type", "entity"},
              {"name", name},
              {"entityType", types[i % 4]},
              {"observations",
               {"created for the benchmark", "index " + std::to_string(i), std::string("kind ") + types[i % 4]}}};
    text += e.dump() + "\n";
  }
  for (int i = 0; i < 100; ++i) {
    std::snprintf(name, sizeof name, "entity-%03d", i);
    std::snprintf(other, sizeof other, "entity-%03d", (i * 7 + 1) % 100);
    text += nlohmann::ordered_json{{"type", "relation"}, {"from", name}, {"to", other}, {"relationType", "relates_to"}}.dump() + "\n";
  }
  Write(file, text);
}

// The arxiv server's paper store layout (src/servers/arxiv/paper_store.h):
// <store>/<id>/metadata.json with what arXiv's API reports.
void MakePaperStore(const std::string& store) {
  const char* topics[] = {"transformer attention", "graph neural networks", "diffusion models",
                          "reinforcement learning", "protein folding"};
  for (int i = 0; i < 50; ++i) {
    char id[32];
    std::snprintf(id, sizeof id, "2301.%05d", 100 + i);
    fs::create_directories(store + "/" + id);
    std::string topic = topics[i % 5];
    Json m = {{"id", std::string(id) + "v1"},
              {"title", "On " + topic + ", part " + std::to_string(i)},
              {"authors", {"Ada Lovelace", "Alan Turing"}},
              {"summary", "We study " + topic + " at scale and report results on standard benchmarks."},
              {"categories", {i % 2 ? "cs.LG" : "cs.CL", "cs.AI"}},
              {"published", "2023-01-" + std::string(i % 28 < 9 ? "0" : "") + std::to_string(i % 28 + 1) + "T12:00:00Z"}};
    Write(store + "/" + id + "/metadata.json", m.dump(2) + "\n");
  }
}

// 100 Letter pages of 40 text lines ("Page P line L: …"), written by hand:
// one font, one content stream per page, a correct cross-reference table.
void MakePdf(const std::string& path) {
  std::vector<std::string> objects = {"<< /Type /Catalog /Pages 2 0 R >>", "",
                                      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"};
  std::string kids;
  for (int p = 1; p <= 100; ++p) {
    const std::size_t page = objects.size() + 1;
    kids += std::to_string(page) + " 0 R ";
    std::string content = "BT /F1 10 Tf 12 TL 72 740 Td\n";
    for (int l = 1; l <= 40; ++l)
      content += "(Page " + std::to_string(p) + " line " + std::to_string(l) +
                 ": the quick brown fox jumps over the lazy dog) Tj T*\n";
    content += "ET\n";
    objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                      "/Contents " + std::to_string(page + 1) + " 0 R >>");
    objects.push_back("<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "endstream");
  }
  objects[1] = "<< /Type /Pages /Kids [" + kids + "] /Count 100 >>";
  std::string out = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (std::size_t o : offsets) {
    char line[32];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", o);
    out += line;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  Write(path, out);
}

// The excel benchmark's workbook, written by openpyxl (python3-openpyxl from
// scripts/install-deps.sh) so that the file is the kind graders and the
// upstream produce: shared strings, a formula per row, no cached values.
void MakeWorkbook(const std::string& path) {
  const std::string script =
      "import sys, openpyxl\n"
      "wb = openpyxl.Workbook()\n"
      "ws = wb.active\n"
      "ws.title = 'Data'\n"
      "for r in range(1, 101):\n"
      "    for c in range(1, 100):\n"
      "        ws.cell(row=r, column=c, value=(r * c if c % 3 else f'text {r}-{c}'))\n"
      "    ws.cell(row=r, column=100, value=f'=SUM(A{r}:B{r})')\n"
      "wb.save(sys.argv[1])\n";
  int status = Wait(Spawn({"/usr/bin/python3", "-c", script, path}));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("python3-openpyxl could not write " + path + " (scripts/install-deps.sh installs it)");
}

}  // namespace

int ServersTree(const Args& a) {
  std::string dir = a.Str("dir");
  Args tree;
  tree.opts["dir"] = dir;
  if (int rc = McpTree(tree); rc != 0) return rc;
  MakeRepo(dir + "/repo");
  MakeMemory(dir + "/repos/memory_mcp_server/memories-for-mcp.json");
  MakePaperStore(dir + "/arxiv-store");
  fs::create_directories(dir + "/code");
  Write(dir + "/code/hello.py", "import sys\n\nprint('hello from the bench', sys.version_info[0])\n");
  MakePdf(dir + "/doc-100.pdf");
  MakeWorkbook(dir + "/book-10k.xlsx");
  std::printf("servers tree in %s: repo/ (git, 3 commits), repos/memory_mcp_server/memories-for-mcp.json "
              "(100 entities, 100 relations), arxiv-store/ (50 papers), code/hello.py, doc-100.pdf, book-10k.xlsx\n",
              dir.c_str());
  return 0;
}

}  // namespace bench
