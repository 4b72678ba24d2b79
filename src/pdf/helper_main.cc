// sandbox-pdf: the short-lived helper that parses PDFs for the servers
// (protocol.h). It runs inside the sandbox's jail as a child of the agent,
// so a hostile PDF that crashes poppler or qpdf, or makes them loop or
// allocate without end, ends this process only, within the rlimits it sets
// on itself before touching its input.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "pdf/commands.h"
#include "pdf/protocol.h"

namespace {

using sbx::Json;

// Sanitizers reserve terabytes of address space: RLIMIT_AS would stop them
// before main. Such builds rely on RLIMIT_CPU and the client's deadline.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressLimit = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressLimit = false;
#else
constexpr bool kAddressLimit = true;
#endif
#else
constexpr bool kAddressLimit = true;
#endif

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// Sanitizer builds: LeakSanitizer's exit-time check stops the process with
// ptrace, which the jail's seccomp filter refuses, so every helper would
// exit 1. The helper lives for one request; its leaks die with it.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif

namespace {

bool SetLimit(int resource, rlim_t value) {
  struct rlimit r{value, value};
  return ::setrlimit(resource, &r) == 0;
}

bool ParseInteger(const std::string& text, long long& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtoll(text.c_str(), &end, 10);
  return errno == 0 && end != nullptr && *end == '\0';
}

// The whole content of an inherited descriptor, at most `max` bytes.
bool ReadAll(int fd, std::uint64_t max, std::string& out, std::string& why) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    why = std::string("input descriptor: ") + std::strerror(errno);
    return false;
  }
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max) {
    why = "the file is larger than " + std::to_string(max) + " bytes";
    return false;
  }
  out.clear();
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::pread(fd, buffer, sizeof buffer, static_cast<off_t>(out.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == ESPIPE) n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      why = std::string("reading the file: ") + std::strerror(errno);
      return false;
    }
    if (n == 0) return true;
    out.append(buffer, static_cast<std::size_t>(n));
    if (out.size() > max) {
      why = "the file is larger than " + std::to_string(max) + " bytes";
      return false;
    }
  }
}

bool WriteAll(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

int Print(const Json& reply) {
  std::string text = reply.dump(-1, ' ', false, Json::error_handler_t::replace);
  text += '\n';
  return WriteAll(1, text) ? 0 : sbx::pdf::kHelperInternalExit;
}

int Usage(const std::string& why) {
  std::fprintf(stderr, "sandbox-pdf: %s (it is run by the sandbox's servers; see src/pdf/protocol.h)\n",
               why.c_str());
  return 64;
}

int Run(int argc, char** argv) {
  if (argc < 2) return Usage("no command");
  const std::string command = argv[1];
  std::map<std::string, std::string> flags;
  for (int i = 2; i < argc; i += 2) {
    if (std::strncmp(argv[i], "--", 2) != 0 || i + 1 >= argc) return Usage(std::string("bad argument ") + argv[i]);
    flags[argv[i] + 2] = argv[i + 1];
  }
  auto number = [&](const char* name, long long fallback, long long& out) {
    auto it = flags.find(name);
    if (it == flags.end()) return (out = fallback), true;
    return ParseInteger(it->second, out);
  };
  long long memory = 0, cpu = 0, inputs = 1, max_input = 0, max_output = 0;
  if (!number("memory-bytes", 0, memory) || memory <= 0 || !number("cpu-seconds", 0, cpu) || cpu <= 0)
    return Usage("--memory-bytes and --cpu-seconds are required");
  // First thing: nothing below runs without the bounds.
  if ((kAddressLimit && !SetLimit(RLIMIT_AS, static_cast<rlim_t>(memory))) ||
      !SetLimit(RLIMIT_CPU, static_cast<rlim_t>(cpu)) || !SetLimit(RLIMIT_CORE, 0))
    return Usage(std::string("setrlimit: ") + std::strerror(errno));
  if (!number("inputs", 1, inputs) || inputs < 0 || inputs > 1000 || !number("max-input-bytes", 1LL << 30, max_input) ||
      max_input <= 0 || !number("max-output", 8LL << 20, max_output) || max_output <= 0)
    return Usage("bad --inputs, --max-input-bytes or --max-output");

  std::vector<std::string> pdfs(static_cast<std::size_t>(inputs));
  for (long long i = 0; i < inputs; ++i) {
    std::string why;
    if (!ReadAll(sbx::pdf::kFirstInputFd + static_cast<int>(i), static_cast<std::uint64_t>(max_input),
                 pdfs[static_cast<std::size_t>(i)], why)) {
      Json error = sbx::pdf::ErrorReply(why, why.find("larger") != std::string::npos ? "too_large" : "invalid_argument");
      if (command == "merge") error["input"] = i;
      return Print(error);
    }
  }
  const int output_fd = sbx::pdf::kFirstInputFd + static_cast<int>(inputs);
  // Only merge takes any number of inputs (none gives an empty PDF).
  if (command != "merge" && inputs != 1) return Usage(command + " takes one input");
  std::string output;
  Json reply;
  if (command == "text") {
    long long first = 1, last = 1;
    if (!number("first", 1, first) || !number("last", 1, last)) return Usage("bad --first or --last");
    reply = sbx::pdf::PageTexts(pdfs[0], first, last, {static_cast<std::uint64_t>(max_output)});
  } else if (command == "info") {
    reply = sbx::pdf::Info(pdfs[0]);
  } else if (command == "merge") {
    reply = sbx::pdf::Merge(pdfs, output);
  } else if (command == "extract") {
    std::vector<long long> pages;
    const std::string list = flags.count("pages") ? flags["pages"] : "";
    std::size_t start = 0;
    while (start < list.size()) {
      std::size_t comma = list.find(',', start);
      long long n = 0;
      if (!ParseInteger(list.substr(start, comma - start), n)) return Usage("bad --pages");
      pages.push_back(n);
      start = comma == std::string::npos ? list.size() : comma + 1;
    }
    reply = sbx::pdf::Extract(pdfs[0], pages, output);
  } else if (command == "search") {
    // The pattern comes hex-encoded: argv cannot carry a NUL.
    const std::string hex = flags.count("pattern-hex") ? flags["pattern-hex"] : "";
    std::string pattern;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) pattern += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    long long context = 100, max_matches = 10000;
    if (!number("context", 100, context) || context < 0 || !number("max-matches", 10000, max_matches) || max_matches < 0)
      return Usage("bad --context or --max-matches");
    reply = sbx::pdf::Search(pdfs[0], pattern, static_cast<std::size_t>(context), static_cast<std::size_t>(max_matches),
                             {static_cast<std::uint64_t>(max_output)});
  } else if (command == "markdown") {
    long long max_pages = 2000;
    if (!number("max-pages", 2000, max_pages) || max_pages < 0 || max_pages > INT32_MAX) return Usage("bad --max-pages");
    reply = sbx::pdf::Markdown(pdfs[0], static_cast<int>(max_pages), static_cast<std::uint64_t>(max_output));
  } else {
    return Usage("unknown command " + command);
  }
  if (!output.empty() && !WriteAll(output_fd, output))
    return Print(sbx::pdf::ErrorReply(std::string("writing the output: ") + std::strerror(errno)));
  return Print(reply);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::bad_alloc&) {
    // RLIMIT_AS reached: say so while the little memory printing needs is there.
    return Print(sbx::pdf::ErrorReply("the PDF needs more memory than the helper may use", "too_large"));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sandbox-pdf: %s\n", e.what());
    return sbx::pdf::kHelperInternalExit;
  }
}
