#include "app/core/settings/decodingfieldinfo.h"

#include <QCoreApplication>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace glosa {

namespace {

constexpr const char *kContext = "glosa::DecodingPanel";

constexpr const char *kStrategyChoices[] = {
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Greedy"),
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Beam search"),
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Sampling")};
constexpr const char *kNormalizationChoices[] = {
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "None"),
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "GNMT (Wu et al. 2016)"),
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Average log-probability"),
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Length^α")};
constexpr const char *kEarlyStoppingChoices[] = {
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Heuristic"),
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Bounded (exact)"),
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Eager"),
    QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Whole beam")};

// The strategy's own word in the summary; beam search's is beam_size's "beam %1".
constexpr const char *kStrategySummaries[] = {
    QT_TRANSLATE_NOOP("glosa::DecodingSummary", "greedy"), nullptr,
    QT_TRANSLATE_NOOP("glosa::DecodingSummary", "sample")};

constexpr auto Search = DecodingGroup::Search;

// A table, so longer than a function should be; one row per engine field, in its order.
const DecodingFieldInfo kInfos[] = {
    // --- Search
    {.name = "strategy",
     .valueName = "NAME",
     .help = "greedy, beam or sample.",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "&Strategy:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "How each next word is picked: the most probable one (greedy), the best of "
         "several partial translations kept side by side (beam), or at random by "
         "probability (sample)."),
     .group = Search,
     .choices = kStrategyChoices,
     .summaryChoices = kStrategySummaries},
    {.name = "beam_size",
     .valueName = "N",
     .help = "Beam size.",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "&Beam size:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "How many partial translations beam search keeps at each step: more often "
         "finds a better-scoring translation, more slowly (1: the same as greedy)."),
     .group = Search,
     .summary = QT_TRANSLATE_NOOP("glosa::DecodingSummary", "beam %1")},
    {.name = "n_best",
     .valueName = "N",
     .help = "Hypotheses per sentence (beam or sample).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "&N-best:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "How many alternative translations of each sentence are returned, best first "
         "(beam search and sampling)."),
     .group = Search},
    {.name = "length_normalization",
     .valueName = "NAME",
     .help = "gnmt, average, power (Hugging Face's) or none.",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Length &normalisation:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "How finished translations of different lengths are ranked: by their whole "
         "probability (none), which favours short ones, or by probability per token "
         "(gnmt, average, power)."),
     .choices = kNormalizationChoices},
    {.name = "length_penalty",
     .valueName = "A",
     .help = "Length penalty alpha of gnmt or power (0: off).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Length penalty &α:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "Length penalty α of the gnmt and power normalisations: higher favours longer "
         "translations (0: off)."),
     .step = 0.1,
     .controlMax = 5,
     .summary = "α %1",
     .summaryStrategies = engine::strategyBit(engine::SearchStrategy::Beam)},
    {.name = "coverage_penalty",
     .valueName = "B",
     .help = "GNMT coverage penalty beta (0: off).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "&Coverage penalty β:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "GNMT coverage penalty β: lowers translations that leave source words "
         "unattended, so that fewer words are dropped (0: off)."),
     .step = 0.05,
     .controlMax = 2,
     .summary = "β %1"},
    {.name = "early_stopping",
     .valueName = "NAME",
     .help = "heuristic, bounded, eager or beam (Hugging Face's early_stopping=True).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "&Early stopping:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "When beam search stops: once the best running translation looks unable to "
         "win (heuristic), once it cannot win (bounded), at the first finished ones "
         "(eager) or once a whole beam has finished (beam)."),
     .choices = kEarlyStoppingChoices},
    {.name = "max_length",
     .valueName = "N",
     .help = "Maximum target tokens.",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "&Maximum length:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "Most tokens generated for one sentence: a longer translation is cut off.")},
    {.name = "max_length_ratio",
     .valueName = "F",
     .help = "Also cap at ratio x source tokens (0: off).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Maximum length &ratio:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "Also cuts a translation off at this many times the source's tokens, which "
         "ends runaway repetition early (0: off)."),
     .step = 0.5,
     .controlMax = 10},
    {.name = "min_length",
     .valueName = "N",
     .help = "Minimum target tokens before EOS.",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "M&inimum length:"),
     .tip = QT_TRANSLATE_NOOP("glosa::DecodingPanel",
                              "A translation cannot end before this many tokens (0: off).")},
    // --- Logits processors
    {.name = "suppress_tokens",
     .help = "Token ids never generated (model packages set <unk>, <pad>)."},
    {.name = "target_prefix", .help = "Token ids forced at the first steps."},
    {.name = "target_prefix_sentence",
     .help = "Sentence (from 0) target_prefix is forced in (-1: every sentence)."},
    {.name = "keep_terms",
     .help = "Terms copied into the translation as they are (do not translate), one a line."},
    {.name = "truecase",
     .help = "Read a capitalised first word lower-cased where the model's truecase table says "
             "that is its usual form (false: off)."},
    {.name = "no_repeat_ngram_size",
     .valueName = "N",
     .help = "Block repeated n-grams of this size (0: off).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "No-repeat &n-gram:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "No run of this many tokens may occur twice in a translation, which stops "
         "loops such as \"the the the\" (0: off)."),
     .group = Search,
     .summary = QT_TRANSLATE_NOOP("glosa::DecodingSummary", "no-repeat %1")},
    {.name = "repetition_penalty",
     .valueName = "R",
     .help = "CTRL repetition penalty (1: off).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Re&petition penalty:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "CTRL repetition penalty: above 1 makes tokens already in the translation "
         "less likely, below 1 more likely (1: off)."),
     .step = 0.05,
     .controlMax = 5,
     .summary = QT_TRANSLATE_NOOP("glosa::DecodingSummary", "rep %1")},
    {.name = "ngram_penalty",
     .valueName = "L",
     .help = "Subtract L per earlier occurrence of the n-gram a token completes (0: off).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Soft n-gram penalty &λ:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "Soft n-gram penalty λ: subtracted from a token's score for each earlier "
         "occurrence of the n-gram it completes, discouraging repetition without "
         "forbidding it (0: off)."),
     .step = 0.1,
     .controlMax = 10},
    {.name = "ngram_penalty_size",
     .valueName = "N",
     .help = "N-gram size of --ngram-penalty (1: repeated tokens).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Soft n-gram si&ze:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "Length of the n-grams the soft n-gram penalty counts (1: repeated tokens).")},
    // --- Sampling
    {.name = "temperature",
     .valueName = "T",
     .help = "Sampling temperature (1: off).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "&Temperature:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "Sampling temperature: below 1 picks the likely words more often, above 1 "
         "gives rarer words more chance (1: off)."),
     .group = Search,
     .step = 0.05,
     .controlMax = 5,
     .summary = "T %1"},
    {.name = "top_k",
     .valueName = "K",
     .help = "Sample among the k best (0: off).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Top-&k:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "Samples only among the k most probable tokens of each step, which keeps "
         "unlikely words out (0: off)."),
     .group = Search,
     .summary = "top-k %1"},
    {.name = "top_p",
     .valueName = "P",
     .help = "Nucleus sampling mass (1: off).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Top-p (n&ucleus):"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "Nucleus sampling: samples only among the most probable tokens that together "
         "reach this probability (1: off)."),
     .group = Search,
     .step = 0.05,
     .summary = "top-p %1"},
    {.name = "min_p",
     .valueName = "M",
     .help = "Keep tokens with at least M x the best one's probability (0: off).",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "Min-p (re&lative):"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "Samples only among the tokens at least this fraction as probable as the best "
         "one (0: off)."),
     .step = 0.05,
     .summary = "min-p %1"},
    {.name = "seed",
     .valueName = "S",
     .help = "Sampling seed.",
     .label = QT_TRANSLATE_NOOP("glosa::DecodingPanel", "S&eed:"),
     .tip = QT_TRANSLATE_NOOP(
         "glosa::DecodingPanel",
         "Seed of the random sampling: the same seed and settings give the same "
         "translation."),
     .group = Search},
    // --- Traces
    {.name = "trace", .help = "Record the search tree and per-step candidates."},
    {.name = "trace_top_n", .help = "Candidates recorded per step and stage."},
};

} // namespace

const engine::DecodingField &DecodingFieldInfo::field() const
{
    const engine::DecodingField *found = engine::findDecodingField(name);
    if (!found) // a typo in kInfos, caught by tst_decodingfieldinfo
        throw std::logic_error(std::string("decoding field info without an engine field: ") +
                               name);
    return *found;
}

double DecodingFieldInfo::controlMaximum() const
{
    const double max = field().max;
    return std::isinf(max) ? controlMax : max;
}

std::uint8_t DecodingFieldInfo::summaryStrategySet() const
{
    return summaryStrategies ? summaryStrategies : field().strategies;
}

QString DecodingFieldInfo::translatedLabel() const
{
    return label ? QCoreApplication::translate(kContext, label) : QString();
}

QString DecodingFieldInfo::translatedTip() const
{
    return tip ? QCoreApplication::translate(kContext, tip) : QString();
}

QString DecodingFieldInfo::translatedChoice(std::size_t index) const
{
    return index < choices.size() ? QCoreApplication::translate(kContext, choices[index])
                                  : QString();
}

std::span<const DecodingFieldInfo> decodingFieldInfos()
{
    return kInfos;
}

const DecodingFieldInfo *findDecodingFieldInfo(const engine::DecodingField &field)
{
    for (const DecodingFieldInfo &info : kInfos)
        if (std::strcmp(info.name, field.name) == 0)
            return &info;
    return nullptr;
}

bool isDecodingSetting(const engine::DecodingField &field)
{
    const DecodingFieldInfo *info = findDecodingFieldInfo(field);
    return info && info->isSetting();
}

} // namespace glosa
