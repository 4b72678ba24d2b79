// Running a real interpreter (Debian's /usr/bin/python3 or /usr/bin/node)
// on a script and one JSON document, for the differential tests of the
// text libraries (src/python_text, src/js_text): every case goes in one
// document, one process answers them all. Also the tests' deterministic
// generator and the bit-exact form they send numbers in.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include "core/json.h"

namespace sbx::test {

// splitmix64: the same sequence on every platform (std::uniform_* are not),
// so a differential test's cases are the same on every run.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t Below(std::uint64_t n) { return Next() % n; }
  bool OneIn(std::uint64_t n) { return Below(n) == 0; }

 private:
  std::uint64_t s_;
};

// A double's bits as 16 hex digits (how the tests hand numbers to an
// interpreter without any decimal conversion in between), and back.
inline std::string DoubleBits(double d) {
  std::uint64_t bits;
  std::memcpy(&bits, &d, 8);
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(bits));
  return buf;
}
inline double DoubleFromBits(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

// Whether `interpreter` exists and can be run.
inline bool HaveInterpreter(const std::string& interpreter) { return ::access(interpreter.c_str(), X_OK) == 0; }

// `interpreter script` with `input` (serialised) on its standard input;
// returns its standard output parsed as JSON. Throws if it fails.
inline Json RunInterpreter(const std::string& interpreter, const std::string& script, const Json& input) {
  char dir_template[] = "/tmp/sbx-interp-XXXXXX";
  const char* dir = ::mkdtemp(dir_template);
  if (!dir) throw std::runtime_error("mkdtemp failed");
  const std::string script_path = std::string(dir) + "/script", input_path = std::string(dir) + "/input.json";
  std::ofstream(script_path) << script;
  std::ofstream(input_path) << input.dump();
  const std::string command = interpreter + " " + script_path + " < " + input_path;
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buf[65536];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    int status = ::pclose(p);
    std::remove(script_path.c_str());
    std::remove(input_path.c_str());
    ::rmdir(dir);
    if (status != 0) throw std::runtime_error(command + " exited with status " + std::to_string(status));
  }
  return Json::parse(out);
}

}  // namespace sbx::test
