#include "engine/jsonfile.h"

#include "engine/limits.h"
#include "engine/packageerror.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace glosa::engine {

nlohmann::json parseJsonText(std::string_view text, const std::string &path)
{
    using nlohmann::json;
    bool tooDeep = false;
    // nlohmann's parser recurses per level: the callback drops what is too deep before it is
    // built, and the file is refused below.
    const json::parser_callback_t callback = [&](int depth, json::parse_event_t, json &) {
        if (depth > limits::kMaxJsonDepth)
            tooDeep = true;
        return !tooDeep;
    };
    json root;
    try {
        root = json::parse(text.begin(), text.end(), callback);
    } catch (const json::exception &e) {
        throw PackageError(path, {}, std::string("not valid JSON: ") + e.what());
    }
    if (tooDeep)
        throw PackageError(path, {},
                           "nests objects or arrays deeper than the limit of " +
                               std::to_string(limits::kMaxJsonDepth));
    return root;
}

nlohmann::json readJsonFile(const std::string &path, std::uint64_t maxBytes)
{
    namespace fs = std::filesystem;
    std::error_code error;
    if (!fs::is_regular_file(path, error))
        throw PackageError(path, {}, "file not found");
    const std::uintmax_t size = fs::file_size(path, error);
    if (error)
        throw PackageError(path, {}, "cannot read its size: " + error.message());
    if (size > maxBytes)
        throw PackageError(path, {},
                           std::to_string(size) + " bytes is more than the limit of " +
                               std::to_string(maxBytes) + " for this file");
    std::ifstream stream(path, std::ios::binary);
    std::stringstream contents;
    contents << stream.rdbuf();
    if (!stream)
        throw PackageError(path, {}, "cannot read the file");
    return parseJsonText(contents.str(), path);
}

} // namespace glosa::engine
