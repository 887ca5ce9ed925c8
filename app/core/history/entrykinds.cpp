#include "app/core/history/entrykinds.h"

#include "app/core/documents/document.h"
#include "app/core/inference/imageloader.h"
#include "app/core/platform/handoff.h"
#include "app/core/settings/decodingmaps.h"
#include "engine/decoding/coverage.h"
#include "engine/decoding/decodingfields.h"
#include "engine/text/protectedspans.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>

#include <algorithm>
#include <stdexcept>

namespace glosa {

namespace {
const QString kColumns = QStringLiteral("columns");
const QString kGrid = QStringLiteral("grid");
const QString kCoverageThreshold = QStringLiteral("coverageThreshold");
const QString kForced = QStringLiteral("forced");

QStringList pieces(const QList<TokenSpan> &tokens)
{
    QStringList out;
    out.reserve(tokens.size());
    for (const TokenSpan &t : tokens)
        out << t.piece;
    return out;
}

// The hypotheses of one result as outputs of `column`; every hypothesis keeps its own alignment.
void appendOutputs(HistoryEntry &entry, const TranslationResult &result, int column,
                   const QString &label)
{
    const QStringList sourcePieces = pieces(result.sourceTokens);
    for (int k = 0; k < result.hypotheses.size(); ++k) {
        const TranslationHypothesis &h = result.hypotheses[k];
        HistoryOutput output;
        output.column = column;
        output.rank = k;
        output.label = label;
        output.text = h.text;
        output.score = h.score;
        if (!h.alignment.isEmpty() && h.sourceCount == sourcePieces.size()
            && h.alignment.size() == qsizetype(h.tokens.size()) * h.sourceCount) {
            output.alignment.rows = int(h.tokens.size());
            output.alignment.cols = h.sourceCount;
            // Several sentences: block-diagonal, mostly zeros, stored sparse.
            output.alignment.setWeightsFromDense(h.alignment.constData());
            output.alignment.sourceTokens = sourcePieces;
            output.alignment.targetTokens = pieces(h.tokens);
        }
        entry.outputs.append(output);
    }
}

HistoryEntry entryFor(HistoryKind kind, const ModelInfo &model)
{
    HistoryEntry entry;
    entry.kind = kind;
    entry.modelId = model.id;
    entry.modelVersion = model.version;
    entry.sourceLanguage = model.sourceLanguage;
    entry.targetLanguage = model.targetLanguage;
    return entry;
}
} // namespace

QJsonObject decodingSettingsJson(const engine::DecodingOptions &options)
{
    return QJsonDocument::fromJson(
               QByteArray::fromStdString(engine::decodingOptionsToJson(options).dump()))
        .object();
}

engine::DecodingOptions decodingOptionsFromSettings(const QJsonObject &settings)
{
    try {
        const QByteArray json = QJsonDocument(settings).toJson(QJsonDocument::Compact);
        return engine::decodingOptionsFromJson(nlohmann::json::parse(json.toStdString()));
    } catch (const std::exception &) {
        return engine::DecodingOptions();
    }
}

void makeHistoryEntry(QObject *receiver, bool slow, std::function<HistoryEntry()> make,
                      std::function<void(const HistoryEntry &)> record)
{
    if (!slow) {
        record(make());
        return;
    }
    // Handed back through qApp, which outlives the receiver; the guard is read on the GUI
    // thread only.
    startOnPool([guard = QPointer<QObject>(receiver), make = std::move(make),
                 record = std::move(record)] {
        HistoryEntry entry = make();
        postCall(qApp, [guard, record, entry = std::move(entry)] {
            if (guard)
                record(entry);
        });
    });
}

ModelInfo historyModelInfo(const ModelCatalog &catalog, const QString &id)
{
    if (const std::optional<ModelInfo> info = catalog.find(id))
        return *info;
    ModelInfo unknown;
    unknown.id = id;
    return unknown;
}

HistoryEntry translationHistoryEntry(const TranslationResult &result, const ModelInfo &model)
{
    HistoryEntry entry = entryFor(HistoryKind::Translation, model);
    entry.settings = decodingSettingsJson(result.options);
    if (result.coverage.available) // the model's bar, to flag the same words when reopened
        entry.settings.insert(kCoverageThreshold, double(result.coverage.threshold));
    entry.inputText = result.source;
    entry.elapsedMs = result.elapsedMs;
    appendOutputs(entry, result, 0, QString());
    // The words the user forced, so that the entry says which of them were not the model's.
    const QList<int> forced = result.forcedTokens();
    if (!forced.isEmpty()) {
        const QList<TokenSpan> &tokens = result.best()->tokens;
        entry.settings.insert(kForced,
                              QJsonObject{{QStringLiteral("begin"), tokens[forced.first()].begin},
                                          {QStringLiteral("end"), tokens[forced.last()].end}});
    }
    return entry;
}

std::optional<ForcedWords> historyForcedWords(const HistoryEntry &entry)
{
    const QJsonObject forced = entry.settings.value(kForced).toObject();
    const HistoryOutput *best = entry.bestOutput();
    if (entry.kind != HistoryKind::Translation || forced.isEmpty() || !best)
        return std::nullopt;
    ForcedWords words;
    const int size = int(best->text.size());
    words.begin = std::clamp(forced.value(QStringLiteral("begin")).toInt(), 0, size);
    words.end = std::clamp(forced.value(QStringLiteral("end")).toInt(), words.begin, size);
    words.text = best->text.mid(words.begin, words.end - words.begin).trimmed();
    if (words.text.isEmpty())
        return std::nullopt;
    return words;
}

QString historyOutputHtml(const HistoryEntry &entry, const HistoryOutput &output)
{
    const auto html = [](const QString &text) {
        return text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    };
    const std::optional<ForcedWords> forced = historyForcedWords(entry);
    if (!forced || output.rank != 0 || output.column != 0)
        return html(output.text);
    return html(output.text.left(forced->begin)) + QStringLiteral("<u>") +
           html(output.text.mid(forced->begin, forced->end - forced->begin)) +
           QStringLiteral("</u>") + html(output.text.mid(forced->end));
}

HistoryEntry comparisonHistoryEntry(const QString &input, const QList<TranslationResult> &columns,
                                    const ModelInfo &model)
{
    HistoryEntry entry = entryFor(HistoryKind::Comparison, model);
    entry.inputText = input;
    QJsonArray settings;
    for (int c = 0; c < columns.size(); ++c) {
        settings.append(decodingSettingsJson(columns[c].options));
        entry.elapsedMs += columns[c].elapsedMs;
        appendOutputs(entry, columns[c], c, decodingSummary(columns[c].options));
    }
    entry.settings = QJsonObject{{kColumns, settings}};
    return entry;
}

HistoryEntry captionHistoryEntry(const CaptionResult &result, const ModelInfo &model)
{
    HistoryEntry entry = entryFor(HistoryKind::Caption, model);
    entry.settings = decodingSettingsJson(result.options);
    entry.settings.insert(kGrid, QJsonArray{result.gridRows, result.gridCols});
    if (!entry.setImageFromFile(result.imagePath))
        entry.imagePath = result.imagePath; // keep at least where it was
    entry.elapsedMs = result.elapsedMs;
    HistoryOutput output;
    output.text = result.text;
    output.score = result.score;
    const int cells = result.gridRows * result.gridCols;
    if (cells > 0 && result.attention.size() == qsizetype(result.tokens.size()) * cells) {
        output.alignment.rows = int(result.tokens.size());
        output.alignment.cols = cells;
        output.alignment.weights = QList<float>(result.attention.begin(), result.attention.end());
        output.alignment.targetTokens = pieces(result.tokens);
    }
    entry.outputs.append(output);
    return entry;
}

HistoryEntry documentHistoryEntry(const QString &path, const QStringList &sources,
                                  const QStringList &translations, const QString &edited,
                                  const ModelInfo &model, bool best)
{
    HistoryEntry entry = entryFor(HistoryKind::Document, model);
    entry.settings = QJsonObject{{QStringLiteral("document"), path},
                                 {QStringLiteral("quality"), best ? "best" : "fast"}};
    // The paragraphs that fit; a first paragraph longer than the bound is cut.
    qsizetype kept = 1, chars = sources.value(0).size();
    while (kept < sources.size() && chars + 1 + sources[kept].size() <= kDocumentHistoryChars)
        chars += 1 + sources[kept++].size();
    auto firstLines = [kept](const QStringList &lines, qsizetype most) {
        return lines.mid(0, kept).join(QLatin1Char('\n')).left(most);
    };
    entry.inputText = firstLines(sources, kDocumentHistoryChars);
    // A translation may well be longer than its source.
    HistoryOutput output;
    output.text = firstLines(translations, 2 * kDocumentHistoryChars);
    entry.outputs.append(output);
    if (!edited.isEmpty())
        entry.editedText = firstLines(edited.split(QLatin1Char('\n')), 2 * kDocumentHistoryChars);
    if (kept < sources.size() || chars > kDocumentHistoryChars)
        entry.settings.insert(QStringLiteral("truncated"), true);
    return entry;
}

namespace {

// The history list's line for an evaluation: the set and every model evaluated (the entry's
// model is the first, which the model filter matches; the row named only that one of six).
QString evaluationInputText(const QString &setName, const QList<ModelInfo> &models)
{
    QStringList ids;
    for (const ModelInfo &model : models)
        ids << model.id;
    return ids.size() < 2 ? setName : QStringLiteral("%1 · %2").arg(setName, ids.join(", "));
}

QJsonObject testSetJson(const engine::TestSet &set, const QString &setName)
{
    std::size_t referenceCount = 0;
    for (const auto &references : set.references)
        referenceCount += references.size();
    return QJsonObject{{QStringLiteral("name"), setName},
                       {QStringLiteral("sentences"), qint64(set.size())},
                       {QStringLiteral("references"), qint64(referenceCount)}};
}

// The first `count` models' scores: the settings' "models" rows, returned, and one output (a
// column) each in `entry`, whose time is theirs together.
QJsonArray addModelScores(HistoryEntry &entry, const QList<ModelInfo> &models,
                          const std::vector<engine::ModelEvaluation> &evaluations,
                          const QList<engine::DecodingOptions> &options, qsizetype count)
{
    QJsonArray scores;
    for (qsizetype m = 0; m < count; ++m) {
        const ModelInfo &model = models[m];
        const engine::ModelEvaluation &e = evaluations[std::size_t(m)];
        entry.elapsedMs += e.seconds * 1000.0;
        scores.append(QJsonObject{
            {QStringLiteral("id"), model.id},
            {QStringLiteral("version"), model.version},
            {QStringLiteral("bleu"), e.bleu.score},
            {QStringLiteral("chrf"), e.chrf},
            {QStringLiteral("brevityPenalty"), e.bleu.brevityPenalty},
            {QStringLiteral("hypothesisLength"), qint64(e.bleu.hypothesisLength)},
            {QStringLiteral("referenceLength"), qint64(e.bleu.referenceLength)},
            {QStringLiteral("sentences"), qint64(e.hypotheses.size())},
            {QStringLiteral("seconds"), e.seconds},
            {QStringLiteral("decoding"), decodingSettingsJson(options.value(m))}});
        HistoryOutput output;
        output.column = int(m);
        output.label = model.id;
        output.text = QStringLiteral("%1  BLEU %2  chrF2 %3")
                          .arg(model.id, QString::number(e.bleu.score, 'f', 2),
                               QString::number(e.chrf, 'f', 2));
        output.score = e.bleu.score;
        entry.outputs.append(output);
    }
    return scores;
}

// BLEU by source length of the first `count` models, `bucketWidth` words a bucket.
QJsonArray lengthBucketsJson(const engine::TestSet &set,
                             const std::vector<engine::ModelEvaluation> &evaluations,
                             qsizetype count, int bucketWidth)
{
    std::vector<const engine::ModelEvaluation *> pointers;
    for (qsizetype m = 0; m < count; ++m)
        pointers.push_back(&evaluations[std::size_t(m)]);
    QJsonArray buckets;
    for (const engine::LengthBucket &b : engine::bleuByLength(set, pointers, bucketWidth)) {
        QJsonArray bleu;
        for (const double v : b.bleu)
            bleu.append(v);
        buckets.append(QJsonObject{{QStringLiteral("firstWords"), b.firstWords},
                                   {QStringLiteral("lastWords"), b.lastWords},
                                   {QStringLiteral("sentences"), qint64(b.sentences)},
                                   {QStringLiteral("bleu"), bleu}});
    }
    return buckets;
}

// One sentence where the first two models' chrF2 differ, as the entry keeps it; nothing for a
// sentence outside the set or either run.
std::optional<QJsonObject> differenceJson(const engine::TestSet &set,
                                          const std::vector<engine::ModelEvaluation> &evaluations,
                                          const engine::SentenceDifference &d)
{
    const std::size_t i = d.sentence;
    if (i >= set.size() || i >= evaluations[0].hypotheses.size() ||
        i >= evaluations[1].hypotheses.size())
        return std::nullopt;
    return QJsonObject{
        {QStringLiteral("sentence"), qint64(i)},
        {QStringLiteral("source"), QString::fromStdString(set.sources[i])},
        {QStringLiteral("reference"),
         set.references[i].empty() ? QString() : QString::fromStdString(set.references[i].front())},
        {QStringLiteral("chrfA"), d.chrfA},
        {QStringLiteral("chrfB"), d.chrfB},
        {QStringLiteral("hypothesisA"), QString::fromStdString(evaluations[0].hypotheses[i])},
        {QStringLiteral("hypothesisB"), QString::fromStdString(evaluations[1].hypotheses[i])}};
}

// Up to `count` sentences where the first model does best against the second, largest difference
// first, then up to `count` where the second does best, from the other end of the list.
QJsonArray differencesJson(const engine::TestSet &set,
                           const std::vector<engine::ModelEvaluation> &evaluations, int count)
{
    const std::vector<engine::SentenceDifference> diffs =
        engine::differences(evaluations[0], evaluations[1]);
    QJsonArray out;
    const auto add = [&](const engine::SentenceDifference &d) {
        if (const std::optional<QJsonObject> row = differenceJson(set, evaluations, d))
            out.append(*row);
    };
    int shown = 0;
    for (auto it = diffs.begin(); it != diffs.end() && shown < count; ++it, ++shown)
        if (it->chrfA > it->chrfB)
            add(*it);
        else
            break;
    shown = 0;
    for (auto it = diffs.rbegin(); it != diffs.rend() && shown < count; ++it, ++shown)
        if (it->chrfB > it->chrfA)
            add(*it);
        else
            break;
    return out;
}

} // namespace

HistoryEntry evaluationHistoryEntry(const engine::TestSet &set, const QList<ModelInfo> &models,
                                    const std::vector<engine::ModelEvaluation> &evaluations,
                                    const QList<engine::DecodingOptions> &options,
                                    int bucketWidth, int differenceCount)
{
    const qsizetype count = std::min<qsizetype>(models.size(), qsizetype(evaluations.size()));
    HistoryEntry entry = entryFor(HistoryKind::Evaluation, models.value(0));
    const QString setName = QString::fromStdString(set.name);
    entry.inputText = evaluationInputText(setName, models);
    const QJsonArray scores = addModelScores(entry, models, evaluations, options, count);
    entry.settings = QJsonObject{
        {QStringLiteral("testSet"), testSetJson(set, setName)},
        {QStringLiteral("models"), scores},
        {QStringLiteral("bucketWidth"), bucketWidth},
        {QStringLiteral("buckets"), lengthBucketsJson(set, evaluations, count, bucketWidth)}};
    if (count >= 2 && differenceCount > 0)
        entry.settings.insert(QStringLiteral("differences"),
                              differencesJson(set, evaluations, differenceCount));
    return entry;
}

StoredEvaluation evaluationFromHistory(const HistoryEntry &entry)
{
    StoredEvaluation out;
    const QJsonObject &s = entry.settings;
    const QJsonObject set = s.value(QStringLiteral("testSet")).toObject();
    out.testSetName = set.value(QStringLiteral("name")).toString(entry.inputText);
    out.sentences = set.value(QStringLiteral("sentences")).toInteger();
    for (const QJsonValue &v : s.value(QStringLiteral("models")).toArray()) {
        const QJsonObject m = v.toObject();
        StoredModelScore score;
        score.id = m.value(QStringLiteral("id")).toString();
        score.version = m.value(QStringLiteral("version")).toString();
        score.bleu = m.value(QStringLiteral("bleu")).toDouble();
        score.chrf = m.value(QStringLiteral("chrf")).toDouble();
        score.brevityPenalty = m.value(QStringLiteral("brevityPenalty")).toDouble();
        score.seconds = m.value(QStringLiteral("seconds")).toDouble();
        score.sentences = m.value(QStringLiteral("sentences")).toInteger();
        score.decoding = decodingOptionsFromSettings(m.value(QStringLiteral("decoding")).toObject());
        out.models << score;
    }
    for (const QJsonValue &v : s.value(QStringLiteral("buckets")).toArray()) {
        const QJsonObject b = v.toObject();
        engine::LengthBucket bucket;
        bucket.firstWords = b.value(QStringLiteral("firstWords")).toInt();
        bucket.lastWords = b.value(QStringLiteral("lastWords")).toInt(-1);
        bucket.sentences = std::size_t(std::max<qint64>(0, b.value(QStringLiteral("sentences")).toInteger()));
        for (const QJsonValue &bleu : b.value(QStringLiteral("bleu")).toArray())
            bucket.bleu.push_back(bleu.toDouble());
        out.buckets.push_back(bucket);
    }
    for (const QJsonValue &v : s.value(QStringLiteral("differences")).toArray()) {
        const QJsonObject d = v.toObject();
        out.differences << StoredDifference{d.value(QStringLiteral("sentence")).toInteger(),
                                            d.value(QStringLiteral("source")).toString(),
                                            d.value(QStringLiteral("reference")).toString(),
                                            d.value(QStringLiteral("chrfA")).toDouble(),
                                            d.value(QStringLiteral("chrfB")).toDouble(),
                                            d.value(QStringLiteral("hypothesisA")).toString(),
                                            d.value(QStringLiteral("hypothesisB")).toString()};
    }
    return out;
}

QList<engine::DecodingOptions> historyColumnOptions(const HistoryEntry &entry)
{
    QList<engine::DecodingOptions> out;
    if (entry.kind != HistoryKind::Comparison)
        return {decodingOptionsFromSettings(entry.settings)};
    for (const QJsonValue &v : entry.settings.value(kColumns).toArray())
        out << decodingOptionsFromSettings(v.toObject());
    return out;
}

namespace {
// The coverage of `h` over `source`, from its dense alignment [tokens, sourceCount] and the source
// pieces as spansFromPieces placed them: the engine's words and masses (engine/decoding/coverage.h)
// need byte offsets, so the UTF-16 spans are mapped onto the source's UTF-8.
TranslationCoverage coverageOf(const QString &source, const QList<TokenSpan> &sourceTokens,
                               const TranslationHypothesis &h, const engine::CoverageOptions &options)
{
    TranslationCoverage coverage;
    coverage.threshold = options.threshold;
    if (h.alignment.isEmpty() || h.sourceCount != sourceTokens.size() || h.tokens.isEmpty() ||
        h.alignment.size() != qsizetype(h.tokens.size()) * h.sourceCount)
        return coverage;
    const std::string utf8 = source.toStdString();
    const std::vector<qsizetype> byteAt = documents::utf16ToBytes(source);
    std::vector<engine::Token> tokens;
    tokens.reserve(std::size_t(sourceTokens.size()));
    for (const TokenSpan &span : sourceTokens) {
        const int begin = std::clamp(span.begin, 0, int(source.size()));
        const int end = std::clamp(span.end, begin, int(source.size()));
        engine::Token token;
        token.id = span.id;
        token.piece = span.piece.toStdString();
        token.bytes = {std::size_t(byteAt[std::size_t(begin)]),
                       std::size_t(byteAt[std::size_t(end)])};
        token.utf16 = {std::size_t(begin), std::size_t(end)};
        tokens.push_back(std::move(token));
    }
    engine::Tensor attention({std::int64_t(h.tokens.size()), std::int64_t(h.sourceCount)});
    std::copy(h.alignment.begin(), h.alignment.end(), attention.data<float>());
    const engine::Coverage computed =
        engine::computeCoverage(attention, tokens, utf8, options);
    coverage.available = computed.available;
    for (const engine::CoveredWord &word : computed.words)
        coverage.words.append({sourceTokens[qsizetype(word.firstToken)].begin,
                               sourceTokens[qsizetype(word.endToken) - 1].end, word.mass,
                               word.flagged});
    return coverage;
}
} // namespace

TranslationResult translationResultFromHistory(const HistoryEntry &entry, int column)
{
    TranslationResult result;
    result.modelId = entry.modelId;
    result.source = entry.inputText;
    result.options = historyColumnOptions(entry).value(column);
    // Per-column times are not kept: a comparison's columns share the entry's total.
    result.elapsedMs = entry.elapsedMs;
    QList<const HistoryOutput *> outputs;
    for (const HistoryOutput &o : entry.outputs)
        if (o.column == column)
            outputs << &o;
    std::sort(outputs.begin(), outputs.end(),
              [](const HistoryOutput *a, const HistoryOutput *b) { return a->rank < b->rank; });
    for (const HistoryOutput *o : outputs) {
        TranslationHypothesis h;
        h.text = o->text;
        h.score = float(o->score.value_or(0.0));
        h.logProb = h.score;
        const HistoryAlignment &a = o->alignment;
        if (!a.isEmpty() && a.targetTokens.size() == a.rows) {
            h.tokens = spansFromPieces(o->text, a.targetTokens);
            const QList<float> dense = a.denseWeights();
            h.alignment = QVector<float>(dense.begin(), dense.end());
            h.sourceCount = a.cols;
            if (result.sourceTokens.isEmpty() && a.sourceTokens.size() == a.cols)
                result.sourceTokens = spansFromPieces(entry.inputText, a.sourceTokens);
        }
        result.hypotheses << h;
    }
    if (!result.hypotheses.isEmpty()) {
        engine::CoverageOptions options; // entries from before thresholds were kept: the default
        const double kept = entry.settings.value(kCoverageThreshold).toDouble(-1.0);
        if (kept >= 0.0 && kept <= 10.0)
            options.threshold = float(kept);
        result.coverage =
            coverageOf(result.source, result.sourceTokens, result.hypotheses.first(), options);
    }
    return result;
}

CaptionResult captionResultFromHistory(const HistoryEntry &entry)
{
    CaptionResult result;
    result.modelId = entry.modelId;
    result.imagePath = entry.imagePath;
    result.options = decodingOptionsFromSettings(entry.settings);
    result.elapsedMs = entry.elapsedMs;
    const QJsonArray grid = entry.settings.value(kGrid).toArray();
    result.gridRows = grid.at(0).toInt();
    result.gridCols = grid.at(1).toInt();
    if (const HistoryOutput *best = entry.bestOutput()) {
        result.text = best->text;
        result.score = float(best->score.value_or(0.0));
        const HistoryAlignment &a = best->alignment;
        if (a.targetTokens.size() == a.rows)
            result.tokens = spansFromPieces(best->text, a.targetTokens);
        if (!a.isEmpty() && a.cols == result.gridRows * result.gridCols) {
            const QList<float> dense = a.denseWeights();
            result.attention = QVector<float>(dense.begin(), dense.end());
        }
    }
    if (QFileInfo::exists(entry.imagePath)) {
        try {
            result.image = toQImage(loadRgbImage(entry.imagePath));
        } catch (const std::exception &) {
            // Changed or damaged since: the caller shows the stored thumbnail.
        }
    }
    return result;
}

QList<TokenSpan> spansFromPieces(const QString &text, const QStringList &pieces)
{
    QList<TokenSpan> spans;
    spans.reserve(pieces.size());
    // The protected spans of the text as UTF-16 ranges, found only if a placeholder is among the
    // pieces (models without placeholders never produce one).
    std::vector<std::pair<int, int>> protectedRanges;
    if (std::any_of(pieces.begin(), pieces.end(), [](const QString &p) {
            return engine::placeholderIndex(p.toStdString()) >= 0;
        })) {
        static const engine::SpanProtector protector;
        const QByteArray utf8 = text.toUtf8();
        const auto utf16At = [&](std::size_t byte) {
            return int(QString::fromUtf8(utf8.constData(), qsizetype(byte)).size());
        };
        for (const engine::ProtectedSpan &s : protector.find(utf8.toStdString()))
            protectedRanges.emplace_back(utf16At(s.bytes.begin), utf16At(s.bytes.end));
    }
    int position = 0;
    bool lost = false; // the previous piece was not found: resynchronise on the next one
    for (const QString &piece : pieces) {
        TokenSpan span;
        span.piece = piece;
        QString surface = piece;
        surface.remove(QChar(0x2581));
        int at = surface.isEmpty() ? -1 : text.indexOf(surface, position);
        if (engine::placeholderIndex(piece.toStdString()) >= 0) {
            const auto next = std::find_if(protectedRanges.begin(), protectedRanges.end(),
                                           [&](const auto &r) { return r.first >= position; });
            at = next == protectedRanges.end() ? -1 : next->first;
            surface = next == protectedRanges.end() ? QString() : text.mid(at, next->second - at);
        }
        // Only white space may lie between two tokens; anything else means this piece is not
        // spelt in the text as in the vocabulary (unless an earlier piece was not found).
        for (int i = position; at >= 0 && !lost && i < at; ++i)
            if (!text.at(i).isSpace())
                at = -1;
        if (at >= 0) {
            span.begin = at;
            span.end = at + int(surface.size());
            position = span.end;
            lost = false;
        } else {
            // A lone "▁" stands for the white space before the next word; the worker puts its
            // empty span where that word begins.
            if (surface.isEmpty() && piece.startsWith(QChar(0x2581)))
                while (position < text.size() && text.at(position).isSpace())
                    ++position;
            span.begin = span.end = position;
            lost = lost || !surface.isEmpty();
        }
        spans << span;
    }
    return spans;
}

} // namespace glosa
