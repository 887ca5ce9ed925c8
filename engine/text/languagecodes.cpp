#include "engine/text/languagecodes.h"

#include "engine/text/tokenizer.h"

#include <unicode/uloc.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace glosa::engine {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// ISO 639-3 -> 639-1 for every 2-letter code ICU knows.
const std::map<std::string, std::string> &twoLetterCodes()
{
    static const std::map<std::string, std::string> table = [] {
        std::map<std::string, std::string> out;
        for (const char *const *code = uloc_getISOLanguages(); *code; ++code) {
            const std::string two = *code;
            const std::string three = uloc_getISO3Language(two.c_str());
            if (two.size() == 2 && three.size() == 3)
                out.emplace(three, two);
        }
        // ICU gives the terminology codes; the bibliographic ones appear in model cards too.
        for (const auto &[b, t] : std::map<std::string, std::string>{
                 {"fre", "fr"}, {"ger", "de"}, {"chi", "zh"}, {"dut", "nl"}, {"gre", "el"},
                 {"per", "fa"}, {"rum", "ro"}, {"cze", "cs"}, {"slo", "sk"}, {"alb", "sq"},
                 {"arm", "hy"}, {"baq", "eu"}, {"bur", "my"}, {"geo", "ka"}, {"ice", "is"},
                 {"mac", "mk"}, {"mao", "mi"}, {"may", "ms"}, {"tib", "bo"}, {"wel", "cy"}})
            out.emplace(b, t);
        // Macrolanguage members OPUS-MT uses for a language people name by its 2-letter code.
        for (const auto &[member, two] : std::map<std::string, std::string>{
                 {"cmn", "zh"}, {"arb", "ar"}, {"pes", "fa"}, {"zsm", "ms"}, {"nob", "nb"}})
            out.emplace(member, two);
        return out;
    }();
    return table;
}

} // namespace

std::string iso639_3(const std::string &language)
{
    const std::string code = lower(language);
    if (code.size() != 2)
        return code;
    const std::string three = uloc_getISO3Language(code.c_str());
    return three.empty() ? code : three;
}

std::string iso639_1(const std::string &language)
{
    const std::string code = lower(language);
    const auto it = twoLetterCodes().find(code);
    return it == twoLetterCodes().end() ? code : it->second;
}

std::string normalizedLanguageTag(const std::string &tag)
{
    std::string out;
    std::size_t begin = 0;
    for (int part = 0; begin <= tag.size(); ++part) {
        std::size_t end = tag.find_first_of("_-", begin);
        if (end == std::string::npos)
            end = tag.size();
        std::string subtag = tag.substr(begin, end - begin);
        if (part == 0)
            subtag = iso639_1(subtag);
        else if (subtag.size() == 2) // a region
            std::transform(subtag.begin(), subtag.end(), subtag.begin(),
                           [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        else if (subtag.size() == 4) // a script
            subtag = static_cast<char>(std::toupper(static_cast<unsigned char>(subtag[0]))) +
                     lower(subtag.substr(1));
        if (part > 0)
            out += '-';
        out += subtag;
        begin = end + 1;
    }
    return out;
}

std::string languageOfCodeToken(const std::string &token)
{
    const std::size_t length = languageCodeLength(token);
    if (length == 0 || length != token.size())
        return {};
    return normalizedLanguageTag(token.substr(2, token.size() - 4));
}

bool sameLanguage(const std::string &a, const std::string &b)
{
    return lower(normalizedLanguageTag(a)) == lower(normalizedLanguageTag(b));
}

} // namespace glosa::engine
