// Opening and saving the workbook a tool names, with the errors Python and
// openpyxl give for it. Paths are absolute, as upstream's stdio mode
// requires (get_excel_path), and must lie inside the workspace: every open
// is resolved by the kernel beneath it (confine/), so "..", links and
// absolute links cannot reach outside.
#pragma once

#include <cstdint>
#include <string>

#include "core/unique_fd.h"
#include "servers/excel/excel.h"
#include "servers/excel/workbook.h"

namespace sbx::servers::excel {

struct Context {
  Options options;
  std::string root_path;  // the workspace as given ("/data")
  UniqueFd root;          // O_PATH descriptor of it, opened for each call
};

// get_excel_path: the path itself when absolute, else ValueError "Invalid
// filename: ..., must be an absolute path when not in SSE mode".
std::string FullPath(const std::string& filepath);

// load_workbook(path): openpyxl's extension check (InvalidFileException),
// then the file (FileNotFoundError, IsADirectoryError, PermissionError for
// a path outside the workspace; OSError past max_file_bytes), then the
// package (BadZipFile "File is not a zip file", KeyError for a missing
// part, ValueError for other damage).
Workbook LoadBook(const Context& ctx, const std::string& path);
// wb.save(path): written whole to a temporary beside the file and renamed
// over it. `make_parents`: create missing directories first
// (create_workbook's mkdir(parents=True)).
void SaveBook(const Context& ctx, Workbook& wb, const std::string& path, bool make_parents = false);

struct FileInfo {
  bool exists = false;
  std::uint64_t size = 0;
  double mtime = 0;  // st_mtime as Python computes it
};
// Path(path).exists() / stat(), inside the workspace (outside: absent).
FileInfo StatPath(const Context& ctx, const std::string& path);

}  // namespace sbx::servers::excel
