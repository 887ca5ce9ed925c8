#include "engine/text/sentencesplitter.h"

#include <unicode/brkiter.h>
#include <unicode/filteredbrk.h>
#include <unicode/locid.h>
#include <unicode/utext.h>

#include <map>
#include <mutex>

namespace glosa::engine {

namespace {

// Abbreviations CLDR's suppression lists lack, added per language so that a title before a name
// does not end a sentence. Only words that practically never end a sentence belong here.
const std::map<std::string, std::vector<const char16_t *>> &extraAbbreviations()
{
    static const std::map<std::string, std::vector<const char16_t *>> table = {
        {"en",
         {u"Dr.", u"Mr.", u"Mrs.", u"Ms.", u"Prof.", u"St.", u"Mt.", u"Jr.", u"Sr.", u"e.g.",
          u"i.e.", u"vs."}},
        {"es", {u"Sr.",  u"Sra.",  u"Srta.", u"Sres.", u"Dr.",  u"Dra.",  u"Dres.",  u"Ud.",
                u"Uds.", u"Vd.",   u"Vds.",  u"Lic.",  u"Ing.", u"Prof.", u"Profa.", u"D.",
                u"Dña.", u"Avda.", u"núm.",  u"pág.",  u"tel.", u"p.ej.", u"EE.UU.", u"aprox."}},
        // CLDR's German list lacks "Prof.", "bzw." and "ca." (a break before "Prof. Weiß"'s name);
        // "Nr."/"Str." come before a number or name.
        {"de",
         {u"Dr.", u"Prof.", u"Hr.", u"Hrn.", u"Fr.", u"Nr.", u"Str.", u"St.", u"bzw.", u"ca.",
          u"vgl.", u"ggf.", u"evtl.", u"Tel.", u"Abs."}},
    };
    return table;
}

struct UTextCloser
{
    void operator()(UText *text) const { utext_close(text); }
};

} // namespace

struct SentenceSplitter::Private
{
    std::string language;
    std::unique_ptr<icu::BreakIterator> prototype;
};

SentenceSplitter::SentenceSplitter(const std::string &language) : d(std::make_unique<Private>())
{
    d->language = language;
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale locale = icu::Locale::forLanguageTag(language, status);
    if (U_FAILURE(status) || locale.isBogus()) { // not BCP 47: try an ICU locale id
        status = U_ZERO_ERROR;
        locale = icu::Locale::createCanonical(language.c_str());
    }
    std::unique_ptr<icu::BreakIterator> base(
        icu::BreakIterator::createSentenceInstance(locale, status));
    if (U_FAILURE(status) || !base)
        throw std::runtime_error("cannot create an ICU sentence iterator for language \"" +
                                 language + "\": " + u_errorName(status));

    // The filtered builder loads CLDR's "standard" suppressions for the locale (none for most
    // languages) and takes our additions on top. ICU has no such data at all for some locales
    // ("ja", "zh", "und", ""): U_MISSING_RESOURCE_ERROR. Those get the unfiltered iterator.
    std::unique_ptr<icu::FilteredBreakIteratorBuilder> builder(
        icu::FilteredBreakIteratorBuilder::createInstance(locale, status));
    if (status == U_MISSING_RESOURCE_ERROR) {
        d->prototype = std::move(base);
        return;
    }
    if (U_FAILURE(status) || !builder)
        throw std::runtime_error("cannot create ICU abbreviation filters for language \"" +
                                 language + "\": " + u_errorName(status));
    const auto extra = extraAbbreviations().find(locale.getLanguage());
    if (extra != extraAbbreviations().end())
        for (const char16_t *abbreviation : extra->second) {
            UErrorCode ignored = U_ZERO_ERROR; // already in CLDR's list: fine
            builder->suppressBreakAfter(icu::UnicodeString(abbreviation), ignored);
        }
    d->prototype.reset(builder->build(base.release(), status));
    if (U_FAILURE(status) || !d->prototype)
        throw std::runtime_error("cannot build the ICU sentence iterator for language \"" +
                                 language + "\": " + u_errorName(status));
}

SentenceSplitter::~SentenceSplitter() = default;
SentenceSplitter::SentenceSplitter(SentenceSplitter &&) noexcept = default;
SentenceSplitter &SentenceSplitter::operator=(SentenceSplitter &&) noexcept = default;

const std::string &SentenceSplitter::language() const
{
    return d->language;
}

std::vector<TextSpan> SentenceSplitter::split(std::string_view text) const
{
    validateUtf8(text);
    if (text.size() > static_cast<std::size_t>(INT32_MAX))
        throw std::invalid_argument("text of " + std::to_string(text.size()) +
                                    " bytes is too long to split (the limit is 2 GiB)");
    std::vector<TextSpan> sentences;
    if (text.empty())
        return sentences;

    // Break iterators keep position state: each call works on its own clone.
    std::unique_ptr<icu::BreakIterator> iterator(d->prototype->clone());
    UErrorCode status = U_ZERO_ERROR;
    // A UTF-8 UText makes ICU report native indices, i.e. byte offsets into `text`.
    std::unique_ptr<UText, UTextCloser> utext(
        utext_openUTF8(nullptr, text.data(), static_cast<int64_t>(text.size()), &status));
    if (U_FAILURE(status))
        throw std::runtime_error(std::string("cannot open text for ICU: ") + u_errorName(status));
    iterator->setText(utext.get(), status);
    if (U_FAILURE(status))
        throw std::runtime_error(std::string("cannot set ICU iterator text: ") +
                                 u_errorName(status));

    std::int32_t begin = iterator->first();
    for (std::int32_t end = iterator->next(); end != icu::BreakIterator::DONE;
         begin = end, end = iterator->next()) {
        const TextSpan span =
            trimWhiteSpace(text, {static_cast<std::size_t>(begin), static_cast<std::size_t>(end)});
        if (!span.empty())
            sentences.push_back(span);
    }
    return sentences;
}

std::vector<TextSpan> splitSentences(std::string_view text, const std::string &language)
{
    return SentenceSplitter(language).split(text);
}

} // namespace glosa::engine
