// The upstream tools' schemas and annotations, as data: copied verbatim from
// shared/reference/tools/filesystem.json (tools/list of the upstream server),
// key order included.
#include "servers/filesystem/tool_schemas.h"

namespace sbx::servers::filesystem {

const Json& ToolSchemas() {
  static const Json schemas = Json::parse(R"json(
{
 "read_file": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    },
    "tail": {
     "type": "number"
    },
    "head": {
     "type": "number"
    }
   },
   "required": [
    "path"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": true,
   "openWorldHint": false
  }
 },
 "read_text_file": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    },
    "tail": {
     "type": "number"
    },
    "head": {
     "type": "number"
    }
   },
   "required": [
    "path"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": true,
   "openWorldHint": false
  }
 },
 "read_media_file": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    }
   },
   "required": [
    "path"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "array",
     "items": {
      "anyOf": [
       {
        "type": "object",
        "properties": {
         "type": {
          "type": "string",
          "enum": [
           "image",
           "audio"
          ]
         },
         "data": {
          "type": "string"
         },
         "mimeType": {
          "type": "string"
         }
        },
        "required": [
         "type",
         "data",
         "mimeType"
        ],
        "additionalProperties": false
       },
       {
        "type": "object",
        "properties": {
         "type": {
          "type": "string",
          "const": "resource"
         },
         "resource": {
          "type": "object",
          "properties": {
           "uri": {
            "type": "string"
           },
           "mimeType": {
            "type": "string"
           },
           "blob": {
            "type": "string"
           }
          },
          "required": [
           "uri",
           "blob"
          ],
          "additionalProperties": false
         }
        },
        "required": [
         "type",
         "resource"
        ],
        "additionalProperties": false
       }
      ]
     }
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": true,
   "openWorldHint": false
  }
 },
 "read_multiple_files": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "paths": {
     "minItems": 1,
     "type": "array",
     "items": {
      "type": "string"
     }
    }
   },
   "required": [
    "paths"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": true,
   "openWorldHint": false
  }
 },
 "write_file": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    },
    "content": {
     "type": "string"
    }
   },
   "required": [
    "path",
    "content"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": false,
   "idempotentHint": true,
   "destructiveHint": true,
   "openWorldHint": false
  }
 },
 "edit_file": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    },
    "edits": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "oldText": {
        "type": "string"
       },
       "newText": {
        "type": "string"
       }
      },
      "required": [
       "oldText",
       "newText"
      ]
     }
    },
    "dryRun": {
     "default": false,
     "type": "boolean"
    }
   },
   "required": [
    "path",
    "edits"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": false,
   "idempotentHint": false,
   "destructiveHint": true,
   "openWorldHint": false
  }
 },
 "create_directory": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    }
   },
   "required": [
    "path"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": false,
   "idempotentHint": true,
   "destructiveHint": false,
   "openWorldHint": false
  }
 },
 "list_directory": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    }
   },
   "required": [
    "path"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": true,
   "openWorldHint": false
  }
 },
 "list_directory_with_sizes": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    },
    "sortBy": {
     "default": "name",
     "type": "string",
     "enum": [
      "name",
      "size"
     ]
    }
   },
   "required": [
    "path"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": true,
   "openWorldHint": false
  }
 },
 "directory_tree": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    },
    "excludePatterns": {
     "default": [],
     "type": "array",
     "items": {
      "type": "string"
     }
    }
   },
   "required": [
    "path"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": true,
   "openWorldHint": false
  }
 },
 "move_file": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "source": {
     "type": "string"
    },
    "destination": {
     "type": "string"
    }
   },
   "required": [
    "source",
    "destination"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": false,
   "idempotentHint": false,
   "destructiveHint": true,
   "openWorldHint": false
  }
 },
 "search_files": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    },
    "pattern": {
     "type": "string"
    },
    "excludePatterns": {
     "default": [],
     "type": "array",
     "items": {
      "type": "string"
     }
    }
   },
   "required": [
    "path",
    "pattern"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": true,
   "openWorldHint": false
  }
 },
 "get_file_info": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "path": {
     "type": "string"
    }
   },
   "required": [
    "path"
   ]
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": true,
   "openWorldHint": false
  }
 },
 "list_allowed_directories": {
  "inputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {}
  },
  "outputSchema": {
   "$schema": "http://json-schema.org/draft-07/schema#",
   "type": "object",
   "properties": {
    "content": {
     "type": "string"
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": false
  },
  "annotations": {
   "readOnlyHint": true,
   "openWorldHint": false
  }
 }
}
)json");
  return schemas;
}

}  // namespace sbx::servers::filesystem
