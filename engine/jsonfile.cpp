#include "engine/jsonfile.h"

#include "engine/packageerror.h"
#include "engine/regularfile.h"

#include <set>
#include <vector>

namespace glosa::engine {

namespace {

using nlohmann::json;
using DomBuilder = nlohmann::detail::json_sax_dom_parser<json>;

// nlohmann's DOM builder behind a gate: every event is counted and checked before it is built,
// and the first bound broken stops the parse (returning false ends sax_parse at once).
class BoundedSax
{
public:
    BoundedSax(json &root, const JsonBounds &bounds) : m_dom(root, true), m_bounds(bounds) {}

    std::string broken; // the message for the first bound broken, or empty

    bool null() { return value() && m_dom.null(); }
    bool boolean(bool v) { return value() && m_dom.boolean(v); }
    bool number_integer(json::number_integer_t v) { return value() && m_dom.number_integer(v); }
    bool number_unsigned(json::number_unsigned_t v) { return value() && m_dom.number_unsigned(v); }
    bool number_float(json::number_float_t v, const std::string &s)
    {
        return value() && m_dom.number_float(v, s);
    }
    bool string(std::string &v) { return value() && m_dom.string(v); }
    bool binary(json::binary_t &v) { return value() && m_dom.binary(v); }
    bool start_object(std::size_t n)
    {
        if (!value() || !open())
            return false;
        m_keys.emplace_back();
        return m_dom.start_object(n);
    }
    bool key(std::string &k)
    {
        if (m_bounds.rejectDuplicateKeys && !m_keys.back().insert(k).second)
            return fail("has the key \"" + k + "\" more than once in one object");
        return m_dom.key(k);
    }
    bool end_object()
    {
        m_keys.pop_back();
        --m_depth;
        return m_dom.end_object();
    }
    bool start_array(std::size_t n) { return value() && open() && m_dom.start_array(n); }
    bool end_array()
    {
        --m_depth;
        return m_dom.end_array();
    }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string &token, const Exception &e)
    {
        return m_dom.parse_error(position, token, e);
    }

private:
    bool fail(const std::string &message)
    {
        broken = message;
        return false;
    }
    // Counts a value: in all, and at the top level.
    bool value()
    {
        if (++m_values > m_bounds.maxValues)
            return fail("holds more than " + std::to_string(m_bounds.maxValues) +
                        " JSON values, the limit for this file");
        if (m_depth == 1 && ++m_topLevel > m_bounds.maxTopLevel)
            return fail("has more than " + std::to_string(m_bounds.maxTopLevel) + " " +
                        m_bounds.topLevelName + ", the limit");
        return true;
    }
    bool open()
    {
        if (++m_depth > limits::kMaxJsonDepth)
            return fail("nests objects or arrays deeper than the limit of " +
                        std::to_string(limits::kMaxJsonDepth));
        return true;
    }

    DomBuilder m_dom;
    const JsonBounds &m_bounds;
    std::vector<std::set<std::string>> m_keys; // per open object, when duplicates are refused
    std::int64_t m_values = 0, m_topLevel = 0;
    int m_depth = 0;
};

} // namespace

std::string parseJsonBounded(std::string_view text, const JsonBounds &bounds, nlohmann::json &out)
{
    out = json();
    BoundedSax sax(out, bounds);
    try {
        json::sax_parse(text.begin(), text.end(), &sax);
    } catch (const json::exception &e) {
        out = json();
        return std::string("not valid JSON: ") + e.what();
    }
    if (!sax.broken.empty())
        out = json();
    return sax.broken;
}

nlohmann::json parseJsonText(std::string_view text, const std::string &path,
                             const JsonBounds &bounds)
{
    json root;
    const std::string refused = parseJsonBounded(text, bounds, root);
    if (!refused.empty())
        throw PackageError(path, {}, refused);
    return root;
}

nlohmann::json readJsonFile(const std::string &path, std::uint64_t maxBytes,
                            const JsonBounds &bounds)
{
    RegularFile file(path);
    std::string contents;
    if (!file.readAll(contents, maxBytes))
        throw PackageError(path, {}, file.missing() ? "file not found" : file.error());
    return parseJsonText(contents, path, bounds);
}

} // namespace glosa::engine
