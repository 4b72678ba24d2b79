#include "mcp/features.h"

namespace sbx::mcp {

Json Resource::Describe() const {
  Json out{{"uri", uri}, {"name", name}};
  if (!title.empty()) out["title"] = title;
  if (!description.empty()) out["description"] = description;
  if (!mime_type.empty()) out["mimeType"] = mime_type;
  return out;
}

Json Prompt::Describe() const {
  Json out{{"name", name}};
  if (!title.empty()) out["title"] = title;
  out["description"] = description;
  if (!arguments.empty()) {
    Json args = Json::array();
    for (const auto& a : arguments) {
      Json arg{{"name", a.name}, {"description", a.description}};
      if (a.required) arg["required"] = *a.required;
      args.push_back(std::move(arg));
    }
    out["arguments"] = std::move(args);
  }
  return out;
}

}  // namespace sbx::mcp
