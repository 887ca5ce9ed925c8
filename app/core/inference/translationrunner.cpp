#include "app/core/inference/translationrunner.h"

#include "app/core/inference/imageloader.h"
#include "engine/captioning/captioningmodel.h"
#include "engine/decoding/coverage.h"
#include "engine/text/protectedspans.h"
#include "engine/text/tokenizer.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QElapsedTimer>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

namespace glosa {

QString TokenSpan::surface() const
{
    QString s = piece;
    s.replace(QChar(0x2581), QString());
    return s.isEmpty() ? piece : s;
}

QList<int> SentenceTrace::bestPath() const
{
    QList<int> path;
    const auto &nodes = trace.nodes;
    for (int n = bestNode; n > 0 && n < int(nodes.size()); n = nodes[n].parent)
        path.prepend(n);
    return path;
}

QList<int> SentenceTrace::pathTokens(int node) const
{
    QList<int> tokens;
    const auto &nodes = trace.nodes;
    for (int n = node; n > 0 && n < int(nodes.size()); n = nodes[n].parent)
        tokens.prepend(nodes[n].token);
    return tokens;
}

const engine::StepTrace *SentenceTrace::bestStep(int step) const
{
    const QList<int> path = bestPath();
    if (step < 0 || step >= path.size())
        return nullptr;
    const engine::TraceNode &n = trace.nodes[path.at(step)];
    for (const engine::StepTrace &s : trace.steps)
        if (s.step == n.step && s.node == n.parent)
            return &s;
    return nullptr;
}

QList<int> SentenceTrace::prefixWith(int step, int token) const
{
    const QList<int> path = bestPath();
    if (step < 0 || step >= path.size())
        return {};
    QList<int> prefix = pathTokens(path.at(step));
    prefix.last() = token;
    return prefix;
}

namespace {

const QChar kSpaceMark(0x2581); // SentencePiece's "▁"

// The byte of a byte-fallback piece ("<0xC3>"), or -1 for any other piece.
int pieceByte(const QString &piece)
{
    if (piece.size() != 6 || !piece.startsWith(QLatin1String("<0x")) ||
        !piece.endsWith(QLatin1Char('>')))
        return -1;
    bool ok = false;
    const int value = piece.mid(3, 2).toInt(&ok, 16);
    return ok ? value : -1;
}

bool isControlPiece(const QString &piece)
{
    return piece.startsWith(QLatin1Char('<')) && piece.endsWith(QLatin1Char('>')) &&
           pieceByte(piece) < 0;
}

// The UTF-8 characters in `bytes` that are complete, the rest dropped.
QString completeCharacters(const QByteArray &bytes)
{
    qsizetype end = bytes.size();
    // Back to the start of the last character; drop it when its bytes are not all there.
    qsizetype start = end;
    while (start > 0 && (static_cast<unsigned char>(bytes[start - 1]) & 0xc0) == 0x80)
        --start;
    if (start > 0) {
        const auto lead = static_cast<unsigned char>(bytes[start - 1]);
        const int length = lead < 0x80    ? 1
                           : lead >= 0xf0 ? 4
                           : lead >= 0xe0 ? 3
                           : lead >= 0xc0 ? 2
                                          : 1;
        if (end - (start - 1) < length)
            end = start - 1;
    }
    return QString::fromUtf8(bytes.left(end));
}

} // namespace

qsizetype wordStart(qsizetype index, const std::function<QString(qsizetype)> &pieceAt)
{
    qsizetype start = index;
    if (pieceAt(index).startsWith(kSpaceMark))
        return start;
    while (start > 0) {
        const QString p = pieceAt(start - 1);
        if (isControlPiece(p))
            break;
        --start;
        if (p.startsWith(kSpaceMark))
            break;
    }
    return start;
}

qsizetype wordEnd(qsizetype index, qsizetype count, const std::function<QString(qsizetype)> &pieceAt)
{
    qsizetype end = index + 1;
    while (end < count) {
        const QString p = pieceAt(end);
        if (p.startsWith(kSpaceMark) || isControlPiece(p))
            break;
        ++end;
    }
    return end;
}

QString TranslationHypothesis::wordAt(int token) const
{
    if (token < 0 || token >= tokens.size())
        return QString();
    const auto pieceAt = [this](qsizetype i) { return tokens.at(i).piece; };
    const qsizetype first = wordStart(token, pieceAt);
    const qsizetype last = wordEnd(token, tokens.size(), pieceAt);
    // The engine's own text of those tokens (engine::detokenize placed them): byte pieces and
    // placeholders read as the characters and spans they stand for. White-space tokens are empty.
    int begin = -1, end = -1;
    for (qsizetype i = first; i < last; ++i) {
        const TokenSpan &t = tokens.at(i);
        if (t.begin == t.end)
            continue;
        begin = begin < 0 ? t.begin : std::min(begin, t.begin);
        end = std::max(end, t.end);
    }
    return begin < 0 ? tokens.at(token).surface() : text.mid(begin, end - begin);
}

QString SentenceTrace::words(const QList<int> &tokens, bool *ends) const
{
    QString text;
    QByteArray bytes; // a run of byte pieces, decoded when it ends
    bool control = false;
    for (int token : tokens) {
        const QString piece = pieces.value(token);
        if (const int byte = pieceByte(piece); byte >= 0) {
            bytes += char(byte);
            continue;
        }
        text += completeCharacters(bytes);
        bytes.clear();
        if (isControlPiece(piece)) {
            control = true;
            continue;
        }
        const int k = engine::placeholderIndex(piece.toStdString());
        if (k >= 0 && k < protectedSpans.size())
            text += (piece.startsWith(kSpaceMark) ? QString(kSpaceMark) : QString()) +
                    protectedSpans.at(k);
        else
            text += piece;
    }
    text += completeCharacters(bytes); // a character still unfinished is not shown
    if (ends)
        *ends = control;
    return text.replace(kSpaceMark, QLatin1Char(' ')).simplified();
}

QString SentenceTrace::tokenText(const QList<int> &before, int token, const QString &space,
                                 bool wholeWord) const
{
    const QString piece = pieces.value(token, QString::number(token));
    if (isControlPiece(piece))
        return piece;
    // The word this token continues: the tokens since the last one that starts a word.
    const qsizetype start = wordStart(before.size(), [&](qsizetype i) {
        return i < before.size() ? pieces.value(before.at(i)) : piece;
    });
    const QList<int> word = before.mid(start);
    if (const int byte = pieceByte(piece); byte >= 0) {
        // The byte pieces just before this one make its character with it.
        QByteArray run;
        for (qsizetype i = word.size(); i > 0 && pieceByte(pieces.value(word.at(i - 1))) >= 0; --i)
            run.prepend(char(pieceByte(pieces.value(word.at(i - 1)))));
        const QString done = completeCharacters(run);
        const QString now = completeCharacters(run + char(byte));
        if (now.size() == done.size())
            return wholeWord ? words(word) + QStringLiteral("…") : QStringLiteral("…");
        if (!wholeWord)
            return now.mid(done.size());
    }
    QString shown = words(QList<int>{token});
    if (wholeWord && !piece.startsWith(kSpaceMark) && !word.isEmpty())
        return words(word + QList<int>{token});
    if (!wholeWord && piece.startsWith(kSpaceMark))
        shown.prepend(space);
    return shown;
}

int TranslationResult::sentenceOfToken(int token) const
{
    for (int s = 0; s < traces.size(); ++s)
        if (token >= traces[s].targetOffset && token < traces[s].targetOffset + traces[s].tokenCount)
            return s;
    return -1;
}

QList<CoveredWord> TranslationCoverage::flagged() const
{
    QList<CoveredWord> list;
    for (const CoveredWord &word : words)
        if (word.flagged)
            list << word;
    return list;
}

QList<int> TranslationResult::forcedTokens() const
{
    QList<int> forced;
    const TranslationHypothesis *h = best();
    if (!h || options.targetPrefix.empty())
        return forced;
    const int prefix = int(options.targetPrefix.size());
    const auto mark = [&](int offset, int count) {
        for (int i = offset; i < offset + std::min(prefix, count); ++i)
            forced << i;
    };
    if (traces.isEmpty()) {
        if (options.targetPrefixSentence <= 0)
            mark(0, int(h->tokens.size()));
        return forced;
    }
    for (int s = 0; s < traces.size(); ++s)
        if (options.targetPrefixSentence < 0 || options.targetPrefixSentence == s)
            mark(traces[s].targetOffset, traces[s].tokenCount);
    return forced;
}

namespace {

// `token` as the views keep it, its UTF-16 range moved by `offset` (where the text it was located
// in starts in the text it is shown in).
TokenSpan toSpan(const engine::Token &token, int offset = 0)
{
    return {token.id, QString::fromStdString(token.piece), offset + int(token.utf16.begin),
            offset + int(token.utf16.end)};
}

// `model` as the interface T, or std::invalid_argument naming the model.
template<typename T>
std::shared_ptr<T> modelAs(const std::shared_ptr<engine::Model> &model, const char *what)
{
    auto typed = std::dynamic_pointer_cast<T>(model);
    if (!typed)
        throw std::invalid_argument("model '" + (model ? model->id() : std::string("(none)"))
                                    + "' is not " + what);
    return typed;
}

// Source tokens of every segment, in order; returns where each segment's columns start.
std::vector<int> appendSourceTokens(TranslationResult &result,
                                    const engine::TranslationResult &translated)
{
    std::vector<int> firstColumn;
    for (const engine::TranslatedSegment &segment : translated.segments) {
        firstColumn.push_back(result.sourceTokens.size());
        for (const engine::Token &token : segment.sourceTokens)
            result.sourceTokens.append(toSpan(token));
    }
    return firstColumn;
}

// Coverage of the best hypothesis, here on the worker so that views only paint it. Available
// when any sentence has attention (a model without attention has it in none).
void appendCoverage(TranslationResult &result, const engine::TranslationResult &translated,
                    const std::string &utf8, const engine::CoverageOptions &coverageOptions)
{
    result.coverage.threshold = coverageOptions.threshold;
    for (const engine::TranslatedSegment &segment : translated.segments) {
        for (const std::string &span : segment.missingSpans)
            result.missingSpans.append(QString::fromStdString(span));
        const engine::Coverage coverage = engine::computeCoverage(
            segment.alignment(), segment.sourceTokens, utf8, coverageOptions);
        result.coverage.available = result.coverage.available || coverage.available;
        for (const engine::CoveredWord &word : coverage.words)
            result.coverage.words.append(
                {int(segment.sourceTokens[word.firstToken].utf16.begin),
                 int(segment.sourceTokens[word.endToken - 1].utf16.end), word.mass, word.flagged});
    }
}

// The whole text's n-best, put together by the engine; each segment's tokens were located in its
// own text, which starts at starts[s] in the whole one.
struct WholeText
{
    const engine::TranslationResult &translated;
    engine::Translator &translator; // for every layer's attention
    const std::vector<int> &firstColumn;
    int sourceCount;
    bool everyAttention;
    const engine::DecodingControl &control;

    // Hypothesis k of the whole text: every segment's k-th.
    TranslationHypothesis hypothesis(std::size_t k) const
    {
        TranslationHypothesis hypothesis;
        hypothesis.sourceCount = sourceCount;
        std::vector<std::size_t> starts;
        const std::string whole = translated.hypothesisText(k, &starts);
        const engine::Utf8Offsets offsets(whole);
        hypothesis.text = QString::fromStdString(whole);
        std::vector<float> alignment;
        for (std::size_t s = 0; s < translated.segments.size(); ++s) {
            const engine::TranslatedSegment &segment = translated.segments[s];
            if (segment.hypotheses.empty())
                continue;
            const std::size_t index = segment.hypothesisAt(k);
            const engine::Hypothesis &h = segment.hypotheses[index];
            if (everyAttention) {
                if (control.cancelled && control.cancelled())
                    throw engine::DecodingCancelled();
                if (std::optional<engine::AttentionMaps> maps =
                        translator.inspectAttention(segment, index))
                    hypothesis.attentionMaps.append(
                        {firstColumn[s], int(hypothesis.tokens.size()), std::move(*maps)});
            }
            const int start = int(offsets.utf16(starts[s]));
            for (const engine::Token &token : segment.targetTokens[index])
                hypothesis.tokens.append(toSpan(token, start));
            hypothesis.tokenLogProbs +=
                QVector<float>(h.tokenLogProbs.begin(), h.tokenLogProbs.end());
            hypothesis.score += h.score;
            hypothesis.logProb += h.logProb;
            appendAlignmentRows(alignment, h, int(segment.sourceTokens.size()), firstColumn[s]);
        }
        if (std::any_of(alignment.begin(), alignment.end(), [](float v) { return v != 0.0f; }))
            hypothesis.alignment = QVector<float>(alignment.begin(), alignment.end());
        return hypothesis;
    }

    // [tokens, segment source tokens] → rows of the whole-text matrix, the segment's columns
    // from `first`.
    void appendAlignmentRows(std::vector<float> &alignment, const engine::Hypothesis &h,
                             int segmentColumns, int first) const
    {
        const bool hasAttention = !h.attention.empty() && h.attention.rank() == 2;
        const std::int64_t columns = hasAttention ? h.attention.dim(1) : 0;
        for (std::size_t t = 0; t < h.tokens.size(); ++t) {
            std::vector<float> row(sourceCount, 0.0f);
            if (hasAttention) {
                const float *a = h.attention.data<float>() + t * columns;
                for (int j = 0; j < std::min<int>(segmentColumns, int(columns)); ++j)
                    row[first + j] = a[j];
            }
            alignment.insert(alignment.end(), row.begin(), row.end());
        }
    }
};

// Each segment's search trace, its place among the best's tokens and the pieces it names.
void appendTraces(TranslationResult &result, const engine::TranslationResult &translated,
                  const engine::Tokenizer &targetTokenizer)
{
    int offset = 0;
    for (const engine::TranslatedSegment &segment : translated.segments) {
        SentenceTrace trace;
        trace.trace = segment.trace;
        trace.targetOffset = offset;
        if (!segment.hypotheses.empty()) {
            trace.tokenCount = int(segment.hypotheses.front().tokens.size());
            trace.bestNode = segment.hypotheses.front().traceNode;
        }
        offset += trace.tokenCount;
        for (const std::string &span : segment.protectedSpans)
            trace.protectedSpans << QString::fromStdString(span);
        auto name = [&](int id) {
            if (id >= 0 && id < targetTokenizer.vocabSize() && !trace.pieces.contains(id))
                trace.pieces.insert(id, QString::fromStdString(targetTokenizer.idToPiece(id)));
        };
        for (const engine::TraceNode &node : trace.trace.nodes)
            name(node.token);
        for (const engine::StepTrace &step : trace.trace.steps)
            for (std::int32_t id : step.tokens)
                name(id);
        result.traces.append(std::move(trace));
    }
}

} // namespace

bool canTranslate(const engine::Model &model)
{
    return dynamic_cast<const engine::TranslationModel *>(&model) != nullptr;
}

bool canCaption(const engine::Model &model)
{
    return dynamic_cast<const engine::CaptioningModel *>(&model) != nullptr;
}

TranslationResult runTranslation(const std::shared_ptr<engine::Model> &model, const QString &text,
                                 const engine::DecodingOptions &options,
                                 const engine::DecodingControl &control, bool everyAttention)
{
    QElapsedTimer timer;
    timer.start();
    const auto translationModel = modelAs<engine::TranslationModel>(model, "a translation model");

    TranslationResult result;
    result.modelId = QString::fromStdString(model->id());
    result.source = text;
    result.options = options;

    engine::Translator translator(translationModel);
    const std::string utf8 = text.toStdString();
    const engine::TranslationResult translated = translator.translate(utf8, options, control);

    const std::vector<int> firstColumn = appendSourceTokens(result, translated);
    appendCoverage(result, translated, utf8, translationModel->coverageOptions());
    const int sourceCount = int(result.sourceTokens.size());
    const WholeText whole{translated,  translator,     firstColumn,
                          sourceCount, everyAttention, control};
    for (std::size_t k = 0; k < translated.hypothesisCount(); ++k)
        result.hypotheses.append(whole.hypothesis(k));
    if (options.trace)
        appendTraces(result, translated, translationModel->targetTokenizer());
    result.elapsedMs = timer.nsecsElapsed() / 1e6;
    return result;
}

QList<engine::AttentionKind> attentionKinds(engine::Model &model)
{
    auto *translation = dynamic_cast<engine::TranslationModel *>(&model);
    if (!translation)
        return {};
    engine::AttentionInspector *inspector = translation->decoder().attentionInspector();
    if (!inspector)
        return {engine::AttentionKind::Cross};
    const std::vector<engine::AttentionKind> kinds = inspector->attentionKinds();
    return QList<engine::AttentionKind>(kinds.begin(), kinds.end());
}

namespace {
// The first sentence's [layers, heads, rows, columns] maps of `kind`: every sentence has the same
// layers and heads.
const engine::Tensor *firstMaps(const TranslationHypothesis &hypothesis, engine::AttentionKind kind)
{
    if (hypothesis.attentionMaps.isEmpty())
        return nullptr;
    const engine::Tensor &maps = hypothesis.attentionMaps.first().maps.of(kind);
    return maps.rank() == 4 ? &maps : nullptr;
}
} // namespace

int attentionLayers(const TranslationHypothesis &hypothesis, engine::AttentionKind kind)
{
    const engine::Tensor *maps = firstMaps(hypothesis, kind);
    return maps ? int(maps->dim(0)) : 0;
}

int attentionHeads(const TranslationHypothesis &hypothesis, engine::AttentionKind kind)
{
    const engine::Tensor *maps = firstMaps(hypothesis, kind);
    return maps ? int(maps->dim(1)) : 0;
}

QVector<float> attentionMatrix(const TranslationResult &result,
                               const TranslationHypothesis &hypothesis, engine::AttentionKind kind,
                               int layer, int head, int *rows, int *columns)
{
    using Kind = engine::AttentionKind;
    const int sources = int(result.sourceTokens.size());
    const int targets = int(hypothesis.tokens.size());
    *rows = kind == Kind::EncoderSelf ? sources : targets;
    *columns = kind == Kind::DecoderSelf ? targets : sources;
    const bool inRange = layer >= 0 && layer < attentionLayers(hypothesis, kind) &&
                         head >= engine::AlignmentSource::kAverageHeads &&
                         head < attentionHeads(hypothesis, kind);
    if (!inRange) {
        *rows = *columns = 0;
        return {};
    }
    QVector<float> matrix(qsizetype(*rows) * *columns, 0.0f);
    for (const SentenceAttention &sentence : hypothesis.attentionMaps) {
        const engine::Tensor block = engine::attentionMap(sentence.maps.of(kind), layer, head);
        const int top =
            kind == Kind::EncoderSelf ? sentence.firstSourceToken : sentence.firstTargetToken;
        const int left =
            kind == Kind::DecoderSelf ? sentence.firstTargetToken : sentence.firstSourceToken;
        const float *values = block.data<float>();
        for (std::int64_t i = 0; i < block.dim(0) && top + i < *rows; ++i)
            for (std::int64_t j = 0; j < block.dim(1) && left + j < *columns; ++j)
                matrix[(top + i) * *columns + left + j] = values[i * block.dim(1) + j];
    }
    return matrix;
}

QStringList decoderInputLabels(const TranslationHypothesis &hypothesis, const QString &start)
{
    QStringList labels;
    for (const SentenceAttention &sentence : hypothesis.attentionMaps) {
        const engine::Tensor &maps = sentence.maps.decoderSelf;
        const int count = maps.rank() == 4 ? int(maps.dim(2)) : 0;
        for (int j = 0; j < count; ++j)
            labels << (j == 0
                           ? start
                           : hypothesis.tokens.value(sentence.firstTargetToken + j - 1).surface());
    }
    return labels;
}

QString tidyCaption(const QString &raw, QList<TokenSpan> *tokens)
{
    QString text;
    text.reserve(raw.size());
    QVector<int> moved(raw.size() + 1); // index in raw → index in text
    for (int i = 0; i < raw.size(); ++i) {
        moved[i] = int(text.size());
        if (raw[i] == QLatin1Char(' ') && i + 1 < raw.size() &&
            QStringView(u".,;:!?").contains(raw[i + 1]))
            continue;
        text += raw[i];
    }
    moved[raw.size()] = int(text.size());
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    if (tokens)
        for (TokenSpan &token : *tokens) {
            token.begin = moved.value(token.begin, int(text.size()));
            token.end = moved.value(token.end, int(text.size()));
        }
    return text;
}

CaptionResult captionResultFrom(const engine::CaptioningModel &captioner,
                                const engine::ImageCaption &caption, const QString &imagePath,
                                const engine::DecodingOptions &options)
{
    if (caption.result.hypotheses.empty())
        throw std::runtime_error("the captioner returned no hypothesis for " +
                                 imagePath.toStdString());
    CaptionResult result;
    result.modelId = QString::fromStdString(captioner.id());
    result.imagePath = imagePath;
    result.options = options;
    const engine::Hypothesis &best = caption.result.hypotheses.front();
    const engine::Detokenized raw = engine::detokenize(captioner.tokenizer(), best.tokens);
    for (const engine::Token &token : raw.tokens)
        result.tokens.append(toSpan(token));
    result.text = tidyCaption(QString::fromStdString(raw.text), &result.tokens);
    result.tokenLogProbs = QVector<float>(best.tokenLogProbs.begin(), best.tokenLogProbs.end());
    result.score = best.score;
    result.gridRows = caption.gridRows;
    result.gridCols = caption.gridCols;
    if (!best.attention.empty())
        result.attention = QVector<float>(best.attention.data<float>(),
                                          best.attention.data<float>() + best.attention.numel());
    return result;
}

CaptionResult runCaption(const std::shared_ptr<engine::Model> &model, const QString &imagePath,
                         const engine::DecodingOptions &options,
                         const engine::DecodingControl &control)
{
    QElapsedTimer timer;
    timer.start();
    const auto captioner = modelAs<engine::CaptioningModel>(model, "a captioning model");
    const RgbImage rgb = loadRgbImage(imagePath);
    const engine::ImageCaption caption =
        captioner->caption(rgb.pixels.data(), rgb.width, rgb.height, options, control);
    CaptionResult result = captionResultFrom(*captioner, caption, imagePath, options);
    result.image = toQImage(rgb);
    result.elapsedMs = timer.nsecsElapsed() / 1e6;
    return result;
}

} // namespace glosa
