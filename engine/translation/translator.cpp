#include "engine/translation/translator.h"

#include "engine/runtime.h"
#include "engine/text/protectedspans.h"
#include "engine/text/sentencesplitter.h"
#include "engine/text/truecaser.h"
#include "engine/text/unicode.h"
#include "engine/translation/translationmodel.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace glosa::engine {

namespace {

const std::string kWordStart = "\xe2\x96\x81"; // "▁", SentencePiece's space marker

bool startsWord(const Token &token)
{
    return token.piece.compare(0, kWordStart.size(), kWordStart) == 0;
}

struct PendingSegment
{
    TextSpan source;
    std::vector<Token> tokens;      // ranges in the input, EOS not yet appended
    std::vector<std::string> spans; // protected span k is placeholder k in tokens
    bool truecased = false;         // its first word read lower-cased
};

// A stretch of a sentence encoded at once, and the protected spans in it (input offsets).
struct Unit
{
    TextSpan range;
    std::vector<TextSpan> spans;
};

// Splits a sentence so that no unit holds more protected spans than the model has placeholders:
// a cut goes before the first span that would not fit, back at the white space before it where
// there is one after the previous span (so that no word is split).
std::vector<Unit> protectionUnits(std::string_view text, TextSpan sentence,
                                  const std::vector<ProtectedSpan> &spans, std::size_t limit)
{
    std::vector<Unit> units;
    Unit unit{{sentence.begin, sentence.end}, {}};
    for (const ProtectedSpan &span : spans) {
        const TextSpan at{sentence.begin + span.bytes.begin, sentence.begin + span.bytes.end};
        if (unit.spans.size() == limit) {
            std::size_t cut = at.begin;
            for (std::size_t c = at.begin; c > unit.spans.back().end; --c) {
                if (isWhiteSpace(static_cast<unsigned char>(text[c - 1]))) {
                    cut = c;
                    break;
                }
            }
            unit.range.end = cut;
            units.push_back(std::move(unit));
            unit = Unit{{cut, sentence.end}, {}};
        }
        unit.spans.push_back(at);
    }
    units.push_back(std::move(unit));
    return units;
}

// Encodes a unit with its spans replaced by placeholders 0, 1, ... and maps every piece back to
// the input: a placeholder piece covers its whole span, other pieces shift past the spans.
std::vector<Token> encodeUnit(const Tokenizer &tokenizer, std::string_view text, const Unit &unit)
{
    std::string modelText;
    std::vector<std::size_t> placeholderAt; // byte offset of placeholder k in modelText
    std::size_t copied = unit.range.begin;
    for (std::size_t k = 0; k < unit.spans.size(); ++k) {
        modelText.append(text.substr(copied, unit.spans[k].begin - copied));
        placeholderAt.push_back(modelText.size());
        modelText += placeholderText(static_cast<int>(k));
        copied = unit.spans[k].end;
    }
    modelText.append(text.substr(copied, unit.range.end - copied));
    // Input offset of modelText offset x; `end` picks the span's end for a placeholder's inside.
    const auto toInput = [&](std::size_t x, bool end) {
        std::size_t input = unit.range.begin + x;
        for (std::size_t k = 0; k < placeholderAt.size(); ++k) {
            const std::size_t p = placeholderAt[k];
            const std::size_t placeholderBytes = placeholderText(static_cast<int>(k)).size();
            if (x <= p)
                break;
            if (x < p + placeholderBytes)
                return end ? unit.spans[k].end : unit.spans[k].begin;
            input = input - placeholderBytes + unit.spans[k].size();
        }
        return input;
    };
    std::vector<Token> tokens = tokenizer.encode(modelText);
    for (Token &token : tokens)
        token.bytes = {toInput(token.bytes.begin, false), toInput(token.bytes.end, true)};
    return tokens;
}

// A chunk's placeholders renumbered 0, 1, ... in order of appearance (the numbering the model
// was trained on), with the span texts in that order.
std::vector<std::string> renumberPlaceholders(std::vector<Token> &tokens, std::string_view text,
                                              const Tokenizer &tokenizer)
{
    std::vector<std::string> spans;
    for (Token &token : tokens) {
        if (placeholderIndex(token.piece) < 0)
            continue;
        token.piece = placeholderText(static_cast<int>(spans.size()));
        token.id = tokenizer.pieceToId(token.piece);
        spans.emplace_back(text.substr(token.bytes.begin, token.bytes.size()));
    }
    return spans;
}

// Lowers the first word of `sentence` (bytes of `modelText`, a copy of the input) in place when
// the truecaser says its usual form is lower-case and no protected span (a kept term, a URL)
// covers it. The lowered word has the same bytes, so offsets into `modelText` stay offsets into
// the input. Returns whether it lowered one.
bool truecaseSentence(const Truecaser &truecaser, std::string &modelText, TextSpan sentence,
                      const std::vector<ProtectedSpan> &spans)
{
    const std::optional<TruecasedWord> word = truecaser.sentenceInitialWord(
        std::string_view(modelText).substr(sentence.begin, sentence.size()));
    if (!word)
        return false;
    for (const ProtectedSpan &span : spans)
        if (span.bytes.begin < word->bytes.end && word->bytes.begin < span.bytes.end)
            return false;
    std::copy(word->lowered.begin(), word->lowered.end(),
              modelText.begin() + static_cast<std::ptrdiff_t>(sentence.begin + word->bytes.begin));
    return true;
}

// A piece that closes a clause (",", ";", ":", with or without a word-start mark).
bool endsClause(const Token &token)
{
    std::string_view piece = token.piece;
    if (piece.substr(0, kWordStart.size()) == kWordStart)
        piece.remove_prefix(kWordStart.size());
    return piece == "," || piece == ";" || piece == ":";
}

// Cuts `tokens` into chunks of at most `limit` pieces. Each cut goes after the last clause mark
// followed by a word start in the second half of the window (a chunk that ends a clause
// translates like a sentence), else before the last word start there (words stay whole), else
// exactly at the limit.
std::vector<std::vector<Token>> chunk(std::vector<Token> tokens, std::size_t limit)
{
    std::vector<std::vector<Token>> chunks;
    std::size_t begin = 0;
    while (tokens.size() - begin > limit) {
        std::size_t cut = begin + limit;
        std::size_t wordCut = 0;
        for (std::size_t i = begin + limit; i > begin + limit / 2; --i) {
            if (!startsWord(tokens[i]))
                continue;
            if (endsClause(tokens[i - 1])) {
                wordCut = i;
                break;
            }
            if (wordCut == 0)
                wordCut = i;
        }
        if (wordCut != 0)
            cut = wordCut;
        chunks.emplace_back(tokens.begin() + begin, tokens.begin() + cut);
        begin = cut;
    }
    chunks.emplace_back(tokens.begin() + begin, tokens.end());
    return chunks;
}

// A multi-target model's ">>xxx<<" code for every segment: the one the text starts with (a code
// typed by the user, MarianTokenizer's convention) or else the model's chosen one. *start is
// where the text after a typed code begins (0 without one).
std::string targetCode(const TranslationModel &model, std::string_view text, std::size_t *start)
{
    *start = 0;
    if (model.sourceTokenizer().vocabularyPath().empty())
        return model.targetLanguageCode();
    const std::size_t lead = std::min(text.find_first_not_of(" \t\r\n"), text.size());
    const std::size_t length = languageCodeLength(text.substr(lead));
    if (length == 0)
        return model.targetLanguageCode();
    *start = lead + length;
    return std::string(text.substr(lead, length));
}

// The code as the segment's first source token: an empty range at its start, `at`.
Token codeToken(const Tokenizer &tokenizer, const std::string &code, std::size_t at,
                const Utf8Offsets &offsets)
{
    Token token;
    token.id = tokenizer.pieceToId(code);
    token.piece = code;
    token.bytes = {at, at};
    token.chars = offsets.codePoints(token.bytes);
    token.utf16 = offsets.utf16(token.bytes);
    return token;
}

// A prefix for one sentence: that sentence is searched on its own with it, the others without it
// (the search forces a prefix in every row of its batch).
struct Steering
{
    Steering(const DecodingOptions &options, std::size_t sentences)
        : oneSentence(options.targetPrefixSentence >= 0 && !options.targetPrefix.empty()),
          steered(static_cast<std::size_t>(std::max(options.targetPrefixSentence, 0))),
          unsteered(options)
    {
        if (oneSentence && steered >= sentences)
            throw std::invalid_argument(
                "decoding option target_prefix_sentence = " + std::to_string(steered) +
                " (from 0): the text has only " + std::to_string(sentences) + " sentence(s)");
        if (oneSentence)
            unsteered.targetPrefix.clear();
    }

    bool oneSentence;
    std::size_t steered;
    DecodingOptions unsteered; // the options of every other sentence
};

// One translate() call's steps and what they share: the model's parts, the options and the
// input, located once.
class TranslationRun
{
public:
    TranslationRun(const TranslationModel &model, const SpanProtector &protector,
                   std::string_view text, const DecodingOptions &options)
        : m_model(model), m_protector(protector), m_options(options), m_text(text),
          m_code(targetCode(model, text, &m_start)), m_offsets(text),
          m_appendEos(model.appendSourceEos()),
          m_limit(static_cast<std::size_t>(model.maxSourceLength()) - (m_appendEos ? 1 : 0) -
                  (m_code.empty() ? 0 : 1)),
          m_placeholders(static_cast<std::size_t>(model.placeholders()))
    {
    }

    // 1. Sentences (their first words truecased in what the model reads), then pieces located
    // in the input, then chunks of what is too long.
    std::vector<PendingSegment> segments(const SentenceSplitter &splitter) const
    {
        const Truecaser *truecaser = m_options.truecase ? m_model.truecaser() : nullptr;
        std::string truecased(truecaser ? m_text : std::string_view()); // the bytes of the input
        const std::string_view modelText = truecaser ? std::string_view(truecased) : m_text;
        std::vector<PendingSegment> pending;
        for (TextSpan sentence : splitter.split(m_text.substr(m_start))) {
            sentence = {sentence.begin + m_start, sentence.end + m_start};
            // A model without placeholders reads the spans as text, but a kept term or a URL
            // first in a sentence is still not lowered.
            std::vector<ProtectedSpan> spans;
            if (m_placeholders || truecaser)
                spans = m_protector.find(m_text.substr(sentence.begin, sentence.size()),
                                         m_options.keepTerms);
            bool lowered = truecaser && truecaseSentence(*truecaser, truecased, sentence, spans);
            if (!m_placeholders)
                spans.clear();
            for (const Unit &unit : protectionUnits(m_text, sentence, spans, m_placeholders)) {
                std::vector<Token> tokens = encodeUnit(m_model.sourceTokenizer(), modelText, unit);
                for (Token &token : tokens) {
                    token.chars = m_offsets.codePoints(token.bytes);
                    token.utf16 = m_offsets.utf16(token.bytes);
                }
                if (!tokens.empty())
                    appendChunks(pending, std::move(tokens), unit, lowered);
            }
        }
        // Segment sources must not overlap and must be ordered for the white space copy.
        for (std::size_t i = 1; i < pending.size(); ++i)
            pending[i].source.begin = std::max(pending[i].source.begin, pending[i - 1].source.end);
        return pending;
    }

    // The search of pending[first, last): one batch, and the steered sentence on its own.
    std::vector<DecodingResult> decodeBatch(TextStepDecoder &decoder,
                                            const std::vector<PendingSegment> &pending,
                                            std::size_t first, std::size_t last,
                                            const Steering &steering,
                                            const DecodingControl &control) const
    {
        const bool steers =
            steering.oneSentence && steering.steered >= first && steering.steered < last;
        std::vector<std::vector<std::int32_t>> sources;
        for (std::size_t i = first; i < last; ++i)
            if (!steering.oneSentence || i != steering.steered)
                sources.push_back(sourceIds(pending[i]));
        std::vector<DecodingResult> decoded;
        if (!sources.empty())
            decoded = decode(decoder, sources, steering.unsteered, control);
        if (steers)
            decoded.insert(decoded.begin() + static_cast<std::ptrdiff_t>(steering.steered - first),
                           std::move(decode(decoder, {sourceIds(pending[steering.steered])},
                                            m_options, control)[0]));
        return decoded;
    }

    // A searched segment: what the model read (EOS included), its hypotheses and their texts,
    // and the protected spans a model without placeholders left out.
    void finish(TranslatedSegment &segment, PendingSegment pending, DecodingResult decoded) const
    {
        segment.source = pending.source;
        segment.sourceTokens = std::move(pending.tokens);
        segment.protectedSpans = std::move(pending.spans);
        segment.truecased = pending.truecased;
        if (m_appendEos)
            segment.sourceTokens.push_back(eosToken(segment.source.end));
        segment.hypotheses = std::move(decoded.hypotheses);
        segment.trace = std::move(decoded.trace);
        for (const Hypothesis &hypothesis : segment.hypotheses) {
            Detokenized detokenized =
                detokenize(m_model.targetTokenizer(), hypothesis.tokens, segment.protectedSpans);
            if (segment.truecased)
                capitalizeFirstLetter(detokenized.text); // same bytes: the ranges hold
            segment.texts.push_back(std::move(detokenized.text));
            segment.targetTokens.push_back(std::move(detokenized.tokens));
        }
        if (m_placeholders == 0 && !segment.texts.empty()) {
            const std::string_view read =
                m_text.substr(segment.source.begin, segment.source.size());
            for (const ProtectedSpan &span : m_protector.find(read, m_options.keepTerms)) {
                const std::string_view spanText = read.substr(span.bytes.begin, span.bytes.size());
                if (segment.texts.front().find(spanText) == std::string::npos)
                    segment.missingSpans.emplace_back(spanText);
            }
        }
    }

    // 3. The text: input white space around the segments, the best hypotheses in between (a
    // typed language code is not copied).
    void joinText(TranslationResult &result) const
    {
        std::size_t copied = m_start;
        for (TranslatedSegment &segment : result.segments) {
            result.text.append(m_text.substr(copied, segment.source.begin - copied));
            const std::size_t start = result.text.size();
            if (!segment.texts.empty())
                result.text += segment.texts.front();
            segment.target = {start, result.text.size()};
            copied = segment.source.end;
        }
        result.text.append(m_text.substr(copied));
    }

private:
    // A unit's pieces as segments of at most m_limit pieces, the language code first in each;
    // `lowered` goes to the sentence's first one.
    void appendChunks(std::vector<PendingSegment> &pending, std::vector<Token> tokens,
                      const Unit &unit, bool &lowered) const
    {
        const Tokenizer &tokenizer = m_model.sourceTokenizer();
        for (std::vector<Token> &piece : chunk(std::move(tokens), m_limit)) {
            PendingSegment segment;
            segment.source = {piece.front().bytes.begin, piece.back().bytes.end};
            // A chunk's range covers its pieces (a lone "▁" has an empty range: keep it inside).
            segment.source.begin = std::max(segment.source.begin, unit.range.begin);
            segment.source.end = std::max(segment.source.end, segment.source.begin);
            segment.spans = renumberPlaceholders(piece, m_text, tokenizer);
            if (!m_code.empty())
                piece.insert(piece.begin(),
                             codeToken(tokenizer, m_code, segment.source.begin, m_offsets));
            segment.tokens = std::move(piece);
            segment.truecased = std::exchange(lowered, false); // the sentence's first piece
            pending.push_back(std::move(segment));
        }
    }

    std::vector<std::int32_t> sourceIds(const PendingSegment &segment) const
    {
        std::vector<std::int32_t> ids;
        for (const Token &token : segment.tokens)
            ids.push_back(token.id);
        if (m_appendEos)
            ids.push_back(m_model.sourceTokenizer().eosId());
        return ids;
    }

    // The EOS the model reads after a segment: an empty range at its end, `at`.
    Token eosToken(std::size_t at) const
    {
        const Tokenizer &tokenizer = m_model.sourceTokenizer();
        Token eos;
        eos.id = tokenizer.eosId();
        eos.piece = tokenizer.idToPiece(eos.id);
        eos.bytes = {at, at};
        eos.chars = m_offsets.codePoints(eos.bytes);
        eos.utf16 = m_offsets.utf16(eos.bytes);
        return eos;
    }

    const TranslationModel &m_model;
    const SpanProtector &m_protector;
    const DecodingOptions &m_options;
    std::string_view m_text;
    std::size_t m_start = 0; // where the sentences begin: after a typed language code
    std::string m_code;      // the target language code first in every segment, or empty
    Utf8Offsets m_offsets;   // of m_text
    bool m_appendEos;
    std::size_t m_limit; // pieces in a segment, besides the code and EOS
    std::size_t m_placeholders;
};

} // namespace

const Tensor &TranslatedSegment::alignment() const
{
    static const Tensor empty;
    return hypotheses.empty() ? empty : hypotheses.front().attention;
}

std::size_t TranslationResult::hypothesisCount() const
{
    std::size_t count = 0;
    for (const TranslatedSegment &segment : segments)
        count = std::max(count, segment.hypotheses.size());
    return count;
}

std::string TranslationResult::hypothesisText(std::size_t rank,
                                              std::vector<std::size_t> *starts) const
{
    // The white space around the segments is the input's: `text` has it between the best
    // hypotheses' targets.
    std::string whole;
    std::size_t copied = 0; // bytes of `text`
    for (const TranslatedSegment &segment : segments) {
        whole.append(text, copied, segment.target.begin - copied);
        copied = segment.target.end;
        if (starts)
            starts->push_back(whole.size());
        if (!segment.hypotheses.empty())
            whole += segment.texts[segment.hypothesisAt(rank)];
    }
    whole.append(text, copied);
    return whole;
}

std::optional<AttentionMaps> Translator::inspectAttention(const TranslatedSegment &segment,
                                                          std::size_t hypothesis)
{
    AttentionInspector *inspector = m_model->decoder().attentionInspector();
    if (!inspector || hypothesis >= segment.hypotheses.size())
        return std::nullopt;
    std::vector<std::int32_t> source;
    source.reserve(segment.sourceTokens.size());
    for (const Token &token : segment.sourceTokens)
        source.push_back(token.id);
    return inspector->inspectAttention(source, segment.hypotheses[hypothesis].tokens);
}

Translator::Translator(std::shared_ptr<TranslationModel> model) : m_model(std::move(model))
{
    if (!m_model)
        throw std::invalid_argument("Translator: null model");
    m_splitter = std::make_unique<SentenceSplitter>(m_model->sourceLanguage());
    m_protector = std::make_unique<SpanProtector>();
}

Translator::~Translator() = default;
Translator::Translator(Translator &&) noexcept = default;
Translator &Translator::operator=(Translator &&) noexcept = default;

void Translator::setBatchSize(int size)
{
    if (size < 1)
        throw std::invalid_argument("Translator: batch size " + std::to_string(size) +
                                    " must be at least 1");
    m_batchSize = size;
}

TranslationResult Translator::translate(std::string_view text, const DecodingOptions &options,
                                        const DecodingControl &control)
{
    validateUtf8(text, "input");
    TextStepDecoder &decoder = m_model->decoder();
    options.validate(decoder.vocabularySize());
    const TranslationRun run(*m_model, *m_protector, text, options);
    std::vector<PendingSegment> pending = run.segments(*m_splitter);
    const Steering steering(options, pending.size());

    // 2. Search, in batches.
    TranslationResult result;
    result.segments.resize(pending.size());
    for (std::size_t first = 0; first < pending.size(); first += m_batchSize) {
        const std::size_t last = std::min(pending.size(), first + m_batchSize);
        const runtime::WorkThreads threads; // the cores idle now, where the user chose none
        std::vector<DecodingResult> decoded =
            run.decodeBatch(decoder, pending, first, last, steering, control);
        for (std::size_t i = first; i < last; ++i)
            run.finish(result.segments[i], std::move(pending[i]), std::move(decoded[i - first]));
        if (control.segmentsDone)
            control.segmentsDone(last, pending.size());
    }
    run.joinText(result);
    return result;
}

} // namespace glosa::engine
