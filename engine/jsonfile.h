// Reading a small JSON file from an untrusted folder (a vocabulary, a Hugging Face config):
// bounded in size before it is read and in nesting depth while it is parsed (engine/limits.h), so
// that a hostile file ends in a PackageError naming it, never in exhausted memory or stack.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace glosa::engine {

// Parses `text` (from `path`, for messages); PackageError when it is not JSON or nests deeper than
// limits::kMaxJsonDepth.
nlohmann::json parseJsonText(std::string_view text, const std::string &path);
// Reads and parses `path`; PackageError when it is missing, larger than maxBytes or not JSON.
nlohmann::json readJsonFile(const std::string &path, std::uint64_t maxBytes);

} // namespace glosa::engine
