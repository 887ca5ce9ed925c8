// Language codes as multi-target MarianMT models spell them and as people type them: ISO 639-1
// ("fr") and ISO 639-3 ("fra") both ways, from ICU's tables (uloc_getISO3Language), and the
// ">>xxx<<" target-language tokens of OPUS-MT models (">>fra<<", ">>pt_BR<<", ">>zho_Hans<<").
//
// Basic usage:
//     iso639_3("fr") == "fra";  iso639_1("spa") == "es";  iso639_1("fur") == "fur" (no 2-letter)
//     languageOfCodeToken(">>pt_BR<<") == "pt-BR";  sameLanguage("fra", "fr") == true
#pragma once

#include <string>

namespace glosa::engine {

// The 3-letter code of a 2-letter one ("fr" -> "fra"); other codes lower-cased as they are.
std::string iso639_3(const std::string &language);
// The 2-letter code of a 3-letter one where ISO 639-1 has one ("fra" -> "fr"); else as it is,
// lower-cased.
std::string iso639_1(const std::string &language);
// A BCP 47 tag ("fra_Latn" or "fr-CA" style) with its primary language in ISO 639-1 where there is
// one, the rest as given with '-' between subtags: "fra_Latn" -> "fr-Latn", "pt_br" -> "pt-BR".
std::string normalizedLanguageTag(const std::string &tag);
// The language of a ">>xxx<<" token, normalizedLanguageTag(xxx); "" when `token` is not one.
std::string languageOfCodeToken(const std::string &token);
// Whether two tags name the same language: the same after normalizedLanguageTag, case aside.
bool sameLanguage(const std::string &a, const std::string &b);

} // namespace glosa::engine
