// Translator: text in, text out, for one TranslationModel — with everything the GUI needs to
// draw why: per-segment source and target tokens located in the user's own text and in the
// translation, n-best hypotheses, attention alignments and the search traces.
//
// Basic usage:
//     Translator translator(model);                         // shared_ptr<TranslationModel>
//     DecodingOptions options = model->defaultDecodingOptions();
//     TranslationResult result = translator.translate("Hello. How are you?", options);
//     std::cout << result.text;                             // "Hola. ¿Cómo estás?"
//     const TranslatedSegment &s = result.segments[0];
//     // s.alignment() [target tokens, source tokens]; s.sourceTokens[j].utf16 is where source
//     // token j sits in the input, s.targetTokens[k][i].utf16 where token i of hypothesis k
//     // sits in s.texts[k]; s.target where s.texts[0] sits in result.text.
//
// Pipeline: validate UTF-8 (InvalidUtf8Error) → sentences (SentenceSplitter for the model's
// source language) → protected spans (URLs, numbers, emoji, markup... protectedspans.h) become
// placeholders when the model has them, a sentence with more spans than placeholders is cut →
// its first word lower-cased where the model's truecase table says that is its usual form
// (DecodingOptions::truecase, truecaser.h; the bytes and so every range stay the user's) →
// SentencePiece pieces with their original ranges (Tokenizer; a placeholder's piece covers its
// whole span) → sentences longer than the model's maxSourceLength are cut into chunks at word
// starts, never dropped →
// batched search (decode()) → each hypothesis detokenised, with the spans put back, each exactly
// once (restoreSpans), its first letter capitalised again where the source's was lowered, and
// its pieces located in that text. A multi-target model (TranslationModel::targetLanguageCodes())
// gets its ">>xxx<<" code first in every segment: the one the text starts with, else
// TranslationModel::targetLanguageCode(); it is a source token with an empty range at the
// segment's start, and a typed one is not copied to the result. The white space between
// sentences is copied from the input, so a paragraph keeps its shape.
//
// Every hypothesis is detokenised here (detokenize, tokenizer.h) and the whole text's n-best put
// together here (TranslationResult::hypothesisText): the app's whole-text result
// (app/core/inference/inferenceresult.h) and glosa-cli only take them, they decode no pieces.
//
// Not thread-safe: one thread drives a model at a time (the app's worker owns both).
#pragma once

#include "engine/layers/attentioninspector.h"
#include "engine/decoding/search.h"
#include "engine/text/tokenizer.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace glosa::engine {

class SentenceSplitter;
class SpanProtector;
class TranslationModel;

// A piece of a sentence translated in one search: a whole sentence, or a chunk of a long one.
struct TranslatedSegment
{
    TextSpan source; // bytes of the input text (trimmed of white space)
    TextSpan target; // bytes of TranslationResult::text taken by the best hypothesis
    // What the model read: pieces with ranges in the input text, then EOS (id eosId(), piece
    // "</s>", an empty range at source.end) when the model appends it. Attention columns follow
    // this order exactly.
    std::vector<Token> sourceTokens;
    // Search output, best first (DecodingOptions::nBest of them).
    std::vector<Hypothesis> hypotheses;
    std::vector<std::string> texts; // detokenised text of each hypothesis, spans restored
    // The protected spans (protectedspans.h) the model read as placeholders: placeholder k in
    // sourceTokens and in the hypotheses' tokens stands for protectedSpans[k].
    std::vector<std::string> protectedSpans;
    // For a model without placeholders (TranslationModel::placeholders() == 0: MarianMT / OPUS-MT
    // packages), which read the spans as plain text: the spans of the source that are not in
    // texts[0] verbatim, to warn about (docs/model-package.md, "Protected spans and imported
    // models"). Always empty for a model with placeholders, which restores every span.
    std::vector<std::string> missingSpans;
    // Whether the model read this segment's first word lower-cased (DecodingOptions::truecase:
    // "Hello!" as "hello!") and each text's first letter was capitalised again. The ranges in
    // the input are unchanged (the lowering keeps the bytes); the source pieces are those of
    // the lowered word ("▁hello").
    bool truecased = false;
    // Each hypothesis's pieces with ranges in its own text: targetTokens[k][i] is
    // hypotheses[k].tokens[i] and where it is in texts[k] (bytes, code points, UTF-16), trimmed
    // of white space (a piece that adds only a space has an empty range); a placeholder's range
    // covers the span put back for it. The best's place in TranslationResult::text is
    // target.begin + targetTokens[0][i].bytes.
    std::vector<std::vector<Token>> targetTokens;
    DecodingTrace trace; // empty unless DecodingOptions::trace

    // hypotheses[0].attention: [target tokens, source tokens] (rows sum to 1); empty Tensor when
    // the model gives none.
    const Tensor &alignment() const;
    // The hypothesis that stands in the whole text's hypothesis `rank`
    // (TranslationResult::hypothesisText): that one, or the last where the search found fewer.
    // Only for a segment with hypotheses.
    std::size_t hypothesisAt(std::size_t rank) const
    {
        return std::min(rank, hypotheses.size() - 1);
    }
};

struct TranslationResult
{
    std::string text; // the best translation, with the input's white space around segments
    std::vector<TranslatedSegment> segments;

    // The whole text's n-best, for callers that show alternatives of the whole text
    // (glosa-cli's JSON, the app's n-best list): how many there are (the most hypotheses a
    // segment has), and hypothesis `rank` put together as `text` is for the best, each segment's
    // hypothesisAt(rank) between the same white space (hypothesisText(0) == text). `starts`, when
    // given, receives where each segment's text begins in it (bytes): its targetTokens ranges
    // plus that are ranges in the whole text.
    std::size_t hypothesisCount() const;
    std::string hypothesisText(std::size_t rank, std::vector<std::size_t> *starts = nullptr) const;
};

class Translator
{
public:
    // Throws std::invalid_argument for a null model.
    explicit Translator(std::shared_ptr<TranslationModel> model);
    ~Translator();
    Translator(Translator &&) noexcept;
    Translator &operator=(Translator &&) noexcept;

    TranslationModel &model() const { return *m_model; }
    // Segments decoded together in one batch (default 16).
    int batchSize() const { return m_batchSize; }
    void setBatchSize(int size);

    // Throws InvalidUtf8Error (naming the byte offset) for ill-formed input, std::invalid_argument
    // for bad options, DecodingCancelled when control.cancelled() says so. White space before,
    // between and after the segments is copied to the result, so empty or white-space-only input
    // comes back as it is, with no segments.
    TranslationResult translate(std::string_view text, const DecodingOptions &options,
                                const DecodingControl &control = {});

    // Every attention behind `segment`'s hypothesis `hypothesis` (0: the best), each layer and
    // head (attentioninspector.h: rows follow its tokens, columns sourceTokens): the model is run
    // again on that one sentence, so only callers that show the maps pay for them. std::nullopt
    // when the model has no AttentionInspector or the segment no such hypothesis.
    std::optional<AttentionMaps> inspectAttention(const TranslatedSegment &segment,
                                                  std::size_t hypothesis = 0);

private:
    std::shared_ptr<TranslationModel> m_model;
    std::unique_ptr<SentenceSplitter> m_splitter; // built once: ICU iterators are not free
    std::unique_ptr<SpanProtector> m_protector;   // likewise for its regular expression
    int m_batchSize = 16;
};

} // namespace glosa::engine
