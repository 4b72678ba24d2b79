// Running a real interpreter (Debian's /usr/bin/python3 or /usr/bin/node)
// on a script and one JSON document, for the differential tests of the
// text libraries (src/python_text, src/js_text): every case goes in one
// document, one process answers them all.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "core/json.h"

namespace sbx::test {

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
