#include "servers/code_runner/languages.h"

#include <array>

namespace sbx::servers::code_runner {
namespace {

// The commands are upstream's (mcp-server-code-runner 0.1.7, constants.js),
// unchanged: they appear in error texts ("Command failed: <command> …").
constexpr std::array<Language, 37> kLanguages = {{
    {"javascript", "node", "", "js"},
    {"php", "php", "", "php"},
    {"python", "python -u", "python3 -u", "python"},
    {"perl", "perl", "", "perl"},
    {"perl6", "perl6", "raku", "perl6"},
    {"ruby", "ruby", "", "ruby"},
    {"go", "go run", "", "go"},
    {"lua", "lua", "", "lua"},
    {"groovy", "groovy", "", "groovy"},
    {"powershell", "powershell -ExecutionPolicy ByPass -File", "", "ps1"},
    {"bat", "cmd /c", "", "bat"},
    {"shellscript", "bash", "", "shellscript"},
    {"fsharp", "fsi", "", "fsharp"},
    {"csharp", "scriptcs", "", "csharp"},
    {"vbscript", "cscript //Nologo", "", "vbscript"},
    {"typescript", "ts-node", "", "ts"},
    {"coffeescript", "coffee", "", "coffeescript"},
    {"scala", "scala", "", "scala"},
    {"swift", "swift", "", "swift"},
    {"julia", "julia", "", "julia"},
    {"crystal", "crystal", "", "crystal"},
    {"ocaml", "ocaml", "", "ocaml"},
    {"r", "Rscript", "", "r"},
    {"applescript", "osascript", "", "applescript"},
    {"clojure", "lein exec", "", "clojure"},
    {"racket", "racket", "", "racket"},
    {"scheme", "csi -script", "", "scheme"},
    {"ahk", "autohotkey", "", "ahk"},
    {"autoit", "autoit3", "", "autoit"},
    {"dart", "dart", "", "dart"},
    {"haskell", "runhaskell", "", "haskell"},
    {"nim", "nim compile --verbosity:0 --hints:off --run", "", "nim"},
    {"lisp", "sbcl --script", "", "lisp"},
    {"kit", "kitc --run", "", "kit"},
    {"v", "v run", "", "v"},
    {"sass", "sass --style expanded", "", "sass"},
    {"scss", "scss --style expanded", "", "scss"},
}};

}  // namespace

std::span<const Language> Languages() { return kLanguages; }

const Language* FindLanguage(std::string_view id) {
  for (const auto& language : kLanguages)
    if (language.id == id) return &language;
  return nullptr;
}

std::string ProgramOf(std::string_view command) {
  auto start = command.find_first_not_of(" \t");
  if (start == std::string_view::npos) return "";
  auto end = command.find_first_of(" \t", start);
  return std::string(command.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
}

}  // namespace sbx::servers::code_runner
