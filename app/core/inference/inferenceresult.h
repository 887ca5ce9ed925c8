// What the inference worker hands to the views: the results of one translation or caption
// request, converted to Qt types, with every token's position in the text it was shown in, so
// that the GUI can paint alignments on QTextDocuments without knowing about the tokenizer.
//
// Why a TranslationResult besides the engine's (engine/translation/translator.h): the engine's
// is per segment (a sentence, or a chunk of a long one) and Qt-free — ids, scores, attention
// tensors, each hypothesis's text and its pieces' ranges in bytes, code points and UTF-16 —
// and glosa-cli, the document translator and the evaluation use it as it is. This one is the
// whole text as the GUI and the history show it: the n-best of the whole text (hypothesis k
// joins every segment's k-th), UTF-16 ranges into QStrings, one alignment matrix over all source
// tokens, coverage, the trace's piece tables, the model id and the time. It is a metatype that
// crosses threads in queued signals and what the history stores. Merging the two would put Qt
// types into the engine or byte offsets and std::string into every view. runTranslation
// (translationrunner.h) is the one conversion and only converts types and joins segments: the
// engine detokenises (engine::detokenize), nothing here decodes pieces again.
#pragma once

#include "engine/layers/attentioninspector.h"
#include "engine/decoding/decodingoptions.h"
#include "engine/decoding/trace.h"

#include <QHash>
#include <QImage>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>

namespace glosa {

// One token as shown to the user: its vocabulary piece and the UTF-16 range it covers in the
// text it belongs to (the source text, or the hypothesis's own text). Ranges exclude white space;
// a token that stands only for white space has begin == end.
struct TokenSpan
{
    int id = -1;
    QString piece; // "▁" marks a preceding space, as in the vocabulary
    int begin = 0;
    int end = 0;
    QString surface() const; // the piece without "▁", for labels
};

// One sentence's share of a hypothesis's attention maps (engine/layers/attentioninspector.h),
// and where its rows and columns start in the whole text's tokens. Kept per sentence: dense maps
// of a whole paragraph would grow with the square of its length for every layer and head.
struct SentenceAttention
{
    int firstSourceToken = 0;
    int firstTargetToken = 0;
    engine::AttentionMaps maps;
};

struct TranslationHypothesis
{
    QString text;
    QList<TokenSpan> tokens;
    QVector<float> tokenLogProbs; // [tokens]
    float score = 0.0f;           // ranking score (length/coverage penalties), summed over sentences
    float logProb = 0.0f;
    // [tokens.size(), source tokens] row-major; rows sum to 1 within the token's sentence and
    // are 0 elsewhere (sentences are decoded independently). Empty without attention.
    QVector<float> alignment;
    int sourceCount = 0; // columns of `alignment`
    // Every attention of this hypothesis, sentence by sentence, when the request asked for them
    // (InferenceWorker::translate's everyAttention) and the model has an AttentionInspector;
    // attentionMatrix() (translationrunner.h) draws one kind, layer and head of it.
    QList<SentenceAttention> attentionMaps;

    // The whole word token `token` is part of, as this hypothesis's text shows it ("▁mu", "cho"
    // → "mucho"): the word the beam tree's and the chart's labels name (wordStart() below), so
    // that a note about one token names a word a reader can find. Empty for no such token.
    QString wordAt(int token) const;

    float alignmentAt(int target, int source) const
    {
        return alignment.isEmpty() ? 0.0f : alignment.at(target * sourceCount + source);
    }
};

// The search trace of one sentence with the pieces of every token it mentions.
struct SentenceTrace
{
    engine::DecodingTrace trace;
    QHash<int, QString> pieces; // token id → vocabulary piece
    // The text each placeholder piece stands for: placeholder k (U+E000 + k) is
    // protectedSpans[k] (engine::TranslatedSegment::protectedSpans).
    QStringList protectedSpans;
    int targetOffset = 0;       // index of the sentence's first token in the hypothesis
    int tokenCount = 0;         // tokens of the best hypothesis in this sentence
    int bestNode = -1;          // the best hypothesis's last trace node

    // The best hypothesis's nodes from its first token on (the root excluded).
    QList<int> bestPath() const;
    // The tokens from the root to `node`, the first one first: the prefix that reaches it.
    QList<int> pathTokens(int node) const;
    // What the search weighed at `step` of the best hypothesis: the expansion of the best
    // path's node before it; null when the trace has none.
    const engine::StepTrace *bestStep(int step) const;
    // The best hypothesis's tokens before `step`, then `token`: the prefix that puts `token`
    // there instead of the best hypothesis's own (empty when there is no such step).
    QList<int> prefixWith(int step, int token) const;
    // The words `tokens` spell, from their pieces ("▁El", "▁gato" → "El gato"), as a person reads
    // them: byte pieces ("<0xC3>", "<0x81>") joined into the characters they make, placeholders
    // as the text they stand for; control pieces ("</s>") are left out and reported in *ends.
    QString words(const QList<int> &tokens, bool *ends = nullptr) const;
    // What `token` adds after the tokens `before`, for a label: its piece with "▁" shown as
    // `space`, a placeholder as its text, and a byte piece as the character it completes with the
    // byte pieces before it ("…" while that character is unfinished). With `wholeWord`, a piece
    // that continues a word is shown with the word's start ("artí" then "culo": "artículo").
    QString tokenText(const QList<int> &before, int token, const QString &space,
                      bool wholeWord = false) const;
};

// Where the word of token `index` starts and ends in a sequence of pieces (`pieceAt(i)`: the
// vocabulary piece of token i): a word starts at a piece marked "▁" or after a control piece
// ("</s>"), and runs until the next such piece. wordStart() is the index of its first token,
// wordEnd() one past its last (`count` tokens in all). SentenceTrace::tokenText names words
// with them for the beam tree and the chart, TranslationHypothesis::wordAt for Compare's notes.
qsizetype wordStart(qsizetype index, const std::function<QString(qsizetype)> &pieceAt);
qsizetype wordEnd(qsizetype index, qsizetype count,
                  const std::function<QString(qsizetype)> &pieceAt);

// A source word of the best hypothesis's coverage (engine/decoding/coverage.h): where it is in
// the source text (UTF-16), the attention mass it received over the whole translation, and
// whether that is below the threshold (a likely omission).
struct CoveredWord
{
    int begin = 0;
    int end = 0;
    float mass = 0.0f;
    bool flagged = false;
};

struct TranslationCoverage
{
    bool available = false; // false: the model has no attention, so no warnings
    float threshold = 0.0f;
    QList<CoveredWord> words; // every sentence's words, in source order

    QList<CoveredWord> flagged() const;
};

struct TranslationResult
{
    QString modelId;
    QString source;
    QList<TokenSpan> sourceTokens;
    QList<TranslationHypothesis> hypotheses; // best first (n-best of every sentence, joined)
    QList<SentenceTrace> traces;             // one per sentence when tracing was asked for
    engine::DecodingOptions options;
    double elapsedMs = 0.0;
    TranslationCoverage coverage; // of the best hypothesis; computed by the worker
    // Numbers, URLs, code... of the source that a model without placeholders (an imported
    // MarianMT one) left out of the best translation (engine TranslatedSegment::missingSpans).
    QStringList missingSpans;

    bool isEmpty() const { return hypotheses.isEmpty(); }
    // The sentence (an index of traces) whose tokens of the best hypothesis hold `token`; -1.
    int sentenceOfToken(int token) const;
    // The best hypothesis's tokens that options.targetPrefix forced, in order: the first tokens
    // of options.targetPrefixSentence (of every sentence for -1). Sentence offsets come from
    // the traces; without them only the first sentence's are known.
    QList<int> forcedTokens() const;
    const TranslationHypothesis *best() const
    {
        return hypotheses.isEmpty() ? nullptr : &hypotheses.first();
    }
};

struct CaptionResult
{
    QString modelId;
    QString imagePath;
    QImage image;       // as the model saw it (oriented), for the overlay
    QString text;
    QList<TokenSpan> tokens;
    QVector<float> tokenLogProbs;
    float score = 0.0f;
    int gridRows = 0;
    int gridCols = 0;
    QVector<float> attention; // [tokens, gridRows * gridCols] row-major
    engine::DecodingOptions options; // as the request asked (the history records them)
    double elapsedMs = 0.0;
};

} // namespace glosa

Q_DECLARE_METATYPE(glosa::TranslationResult)
Q_DECLARE_METATYPE(glosa::CaptionResult)
