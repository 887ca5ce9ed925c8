// Reading a JSON file from an untrusted folder (a vocabulary, a Hugging Face config, a
// safetensors header): bounded in size before it is read, and in nesting depth and in counts
// while it is parsed (engine/limits.h), so that a hostile file ends in a PackageError naming it
// and the count that was over, never in exhausted memory or stack, nor in hours of parsing.
//
// The parse is one linear pass: nlohmann's SAX parser driving its DOM builder, with the bounds
// checked at each event. (nlohmann's parser callback, which this replaced, rescans the parent
// object for a discarded child at the end of every object: 1.4 million `"k":{}` took minutes.)
#pragma once

#include "engine/limits.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace glosa::engine {

struct JsonBounds
{
    // Values of any kind at any depth (each key's value, each array element, each container).
    std::int64_t maxValues = limits::kMaxJsonValues;
    // Members of the top-level object (or elements of a top-level array), and what they are
    // called in the message: "pieces" for a vocabulary, "tensors" for a safetensors header.
    std::int64_t maxTopLevel = limits::kMaxJsonValues;
    const char *topLevelName = "top-level members";
    // Refuse an object that names a key twice (nlohmann would keep the last silently).
    bool rejectDuplicateKeys = false;
};

// Parses `text` into `out`: the reason it is refused ("not valid JSON: …", "has more than 1048576
// pieces, the limit"), or empty.
std::string parseJsonBounded(std::string_view text, const JsonBounds &bounds, nlohmann::json &out);
// Parses `text` (from `path`, for messages); PackageError when it is not JSON, nests deeper than
// limits::kMaxJsonDepth or breaks a bound.
nlohmann::json parseJsonText(std::string_view text, const std::string &path,
                             const JsonBounds &bounds = {});
// Reads and parses `path` (engine/regularfile.h: never blocks, regular files only); PackageError
// when it is missing, not a regular file, larger than maxBytes, not JSON or out of bounds.
nlohmann::json readJsonFile(const std::string &path, std::uint64_t maxBytes,
                            const JsonBounds &bounds = {});

} // namespace glosa::engine
