// A Python exception as upstream raises it: its class name (upstream's
// ExcelMCPError subclasses, openpyxl's and the standard library's) and
// str(e). The tools mirror upstream's try/except chains by throwing and
// catching these, so each text ends up where upstream's would: an
// "Error: ..." result for the classes a tool catches, a FastMCP error
// result ("Error executing tool ...") for the others.
#pragma once

#include <stdexcept>
#include <string>

namespace sbx::servers::excel {

class PyError : public std::runtime_error {
 public:
  PyError(std::string cls, const std::string& message) : std::runtime_error(message), cls_(std::move(cls)) {}
  const std::string& cls() const { return cls_; }
  std::string text() const { return what(); }

 private:
  std::string cls_;
};

}  // namespace sbx::servers::excel
