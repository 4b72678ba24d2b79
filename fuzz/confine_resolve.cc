// confine::Root::Resolve takes path strings from the model. For any bytes it
// must answer an error or a place inside the root (a real path under it and
// a valid descriptor), in a small tree holding the usual traps: links out
// (absolute, relative, through /proc), links back in, a loop.
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "confine/realpath_by_name.h"
#include "confine/resolver.h"

namespace {

const sbx::confine::Root& TheRoot() {
  static const sbx::confine::Root* root = [] {
    char tmpl[] = "/tmp/sandboxd-fuzz-confine-XXXXXX";
    std::string base = ::mkdtemp(tmpl);
    std::string r = base + "/root";
    ::mkdir(r.c_str(), 0755);
    ::mkdir((r + "/sub").c_str(), 0755);
    ::mkdir((base + "/out").c_str(), 0755);
    ::symlink((base + "/out").c_str(), (r + "/abs").c_str());
    ::symlink("../out", (r + "/rel").c_str());
    ::symlink("sub", (r + "/in").c_str());
    ::symlink((r + "/sub").c_str(), (r + "/abs_in").c_str());
    ::symlink("loop", (r + "/loop").c_str());
    ::symlink("/proc/self/cwd", (r + "/magic").c_str());
    auto opened = sbx::confine::Root::Open(r);
    if (!opened) std::abort();
    return new sbx::confine::Root(std::move(*opened));
  }();
  return *root;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& root = TheRoot();
  std::string path(reinterpret_cast<const char*>(data), size);
  auto r = root.Resolve(path);
  if (r && (!sbx::confine::IsWithin(r->path, root.real()) || !r->base.valid())) std::abort();
  if (!path.empty() && path[0] == '/') {
    auto real = sbx::confine::RealpathByName(path);
    if (real) (void)sbx::confine::ResolvedBeneath(*real, root.real());
  }
  return 0;
}
