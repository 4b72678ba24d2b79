#include "servers/excel/cell_value.h"

#include <cmath>
#include <cstdio>

namespace sbx::servers::excel {

std::string NumberText(double value) {
  if (!std::isfinite(value)) return "";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.16g", value);
  return buf;
}

}  // namespace sbx::servers::excel
