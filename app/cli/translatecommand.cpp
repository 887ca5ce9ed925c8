// `glosa-cli translate`.
//
//   glosa-cli translate [--model ID_OR_DIR | --from LANG --to LANG] [--compute-type TYPE]
//       [every decoding setting of engine/decoding/decodingfields.cpp: --strategy, --beam-size,
//        --no-repeat-ngram-size, --top-p, ... (app/cli/modeloptions.h)]
//       [--json [--attention cross|all]] [--save-history] [--force-language] [-o OUT] [FILE...]
//
// -o OUT writes what would go to stdout into OUT through a SaveFile (OUT replaced only once every
// line is done; never an input, however named). A piece of a line that looks like another
// language than the model's source (the language guard, app/core/inference/languageguess.h) is
// not translated: an empty line ({"source", "error"} under --json), a message naming the language
// and the --from/--to for it, and exit code 3 at the end when nothing else failed, unless
// --force-language.
//
// Without --model, translate uses the default model (ModelCatalog::defaultModel) from --from to
// --to, or for the system language (ModelCatalog::defaultTranslationModel).
// translate reads one text per line on stdin and writes one translation per line on stdout, in
// order, flushed after each line. Settings not given come from the model's model.json
// "decoding" object, then from DecodingOptions' defaults. A line may hold several sentences: it
// is split (ICU, the model's source language) and every sentence translated; an empty line gives
// an empty line. A line that is not valid UTF-8 gives an empty line (a JSON object with "error"
// under --json) and a message on stderr naming the line and byte; the other lines are still
// translated and the exit code is 1. Bad arguments or a model that cannot load: a one-line
// message on stderr and exit code 2 (arguments) or 1 (model).
//
// A sentence whose best hypothesis stopped at the maximum length instead of ending with EOS is
// reported on stderr (the translation is still written).
//
// --json writes one object per line: "source", "translation", "hypotheses" (best first; each
// "text", "tokens" (pieces), "token_ids", "token_logprobs", "score", "complete": false when a
// sentence stopped at the maximum length), "source_tokens" (pieces,
// "</s>" included: the alignment's columns), "alignment" (one row per target token of the best
// hypothesis, one column per source token; block-diagonal when the line held several sentences;
// null for a model without attention, e.g. the RNN with attention "none"),
// "segments" (each sentence's "source" and "target" UTF-16 ranges and the index of its first
// source and target token), "strategy" (every setting in effect), "model", "elapsed_ms",
// "missing_spans" (numbers, URLs, code... of the source that a model without placeholders, an
// imported MarianMT one, left out of the best translation; stderr also says so),
// "unknown_words" (the best translation's words in neither the target language's Hunspell
// dictionary nor the source, each "word" and its UTF-16 "range": what the Translate view
// underlines, app/core/inference/wordcheck.h; null when the language has no dictionary).
// --attention all (with --json; the default, cross, gives only "alignment") adds "attention": one
// object per segment (as in "segments"), with a key for each kind the model has
// (engine/layers/attentioninspector.h) holding [layer][head][row][column] weights of the best
// hypothesis, rounded to 1e-4:
//   "cross"         rows: the segment's target tokens; columns: its source tokens
//   "encoder_self"  rows and columns: its source tokens
//   "decoder_self"  rows: its target tokens; column 0 the start token, column j > 0 target token
//                   j - 1; zero above the diagonal (masked), rows sum to 1 over j ≤ row
// A Transformer has all three, the RNN only "cross" (one layer, one head); a model that shows no
// more than the alignment gives {}. The maps come from running the model again on each sentence.
// For a line with several sentences, hypothesis k joins the k-th hypothesis of each sentence
// (the last one where a sentence has fewer) and its score is the sum of theirs.
//
// --save-history also records every non-empty line in the history (glosa-cli's global
// --history PATH, else the default database): all hypotheses with their scores, the best one's
// alignment with source and target token labels, and every setting.
// Both return the process exit code; args start after the command name.
#include "app/cli/help.h"

#include "app/cli/help.h"
#include "app/cli/historycommand.h"
#include "app/cli/modeloptions.h"
#include "app/core/history/entry.h"
#include "app/core/inference/wordcheck.h"
#include "app/core/limits.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/platform/savefile.h"
#include "engine/layers/attentioninspector.h"
#include "engine/decoding/coverage.h"
#include "engine/decoding/decodingfields.h"
#include "engine/text/sentencesplitter.h"
#include "engine/text/unicode.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <unistd.h>

namespace glosa::cli {

namespace {

using engine::DecodingOptions;

double rounded(double value, double scale)
{
    return std::isfinite(value) ? std::round(value * scale) / scale : value;
}

QString fromUtf8(const std::string &text)
{
    return QString::fromUtf8(text.data(), text.size());
}

QJsonValue fromNlohmann(const nlohmann::json &value)
{
    // Wrapped in an array: QJsonDocument parses only arrays and objects. Appended piece by piece,
    // since GCC 12 warns (-Wrestrict, a false positive) on "[" + std::string.
    QByteArray array = "[";
    array += QByteArray::fromStdString(value.dump());
    array += ']';
    return QJsonDocument::fromJson(array).array().at(0);
}

// `withAlignment`: also the dense "alignment" matrix (--json); --save-history alone takes the
// sentences' matrices from `result` instead (historyEntry()), since for a long line the dense
// JSON matrix is hundreds of MB.
// A segment's coverage (engine/decoding/coverage.h): every source token's attention mass (the
// segment's own columns of "source_tokens") and every word with its mass, the flagged ones marked.
QJsonObject coverageJson(const engine::TranslatedSegment &segment, const std::string &source8,
                         const engine::Utf8Offsets &offsets,
                         const engine::CoverageOptions &options)
{
    const engine::Coverage coverage =
        engine::computeCoverage(segment.alignment(), segment.sourceTokens, source8, options);
    if (!coverage.available)
        return QJsonObject{{"available", false},
                           {"reason", "the model has no attention, so no coverage warnings"}};
    QJsonArray mass, words, flagged;
    for (const float value : coverage.tokenMass)
        mass.append(rounded(value, 1e4));
    for (const engine::CoveredWord &word : coverage.words) {
        const engine::TextSpan at = offsets.utf16(word.bytes);
        const QString text = fromUtf8(source8.substr(word.bytes.begin, word.bytes.size()));
        words.append(QJsonObject{{"text", text},
                                 {"source", QJsonArray{qint64(at.begin), qint64(at.end)}},
                                 {"tokens", QJsonArray{qint64(word.firstToken),
                                                       qint64(word.endToken)}},
                                 {"mass", rounded(word.mass, 1e4)},
                                 {"flagged", word.flagged}});
        if (word.flagged)
            flagged.append(text);
    }
    return QJsonObject{{"available", true},
                       {"threshold", rounded(coverage.threshold, 1e4)},
                       {"token_mass", mass},
                       {"words", words},
                       {"flagged", flagged}};
}

// The whole text's n-best (engine::TranslationResult::hypothesisText), each with its pieces,
// ids, log-probabilities, score and whether every sentence ended with EOS.
QJsonArray hypothesesJson(const engine::TranslationResult &result, const engine::Tokenizer &target)
{
    // An empty line: one empty hypothesis.
    const std::size_t hypothesisCount = std::max<std::size_t>(result.hypothesisCount(), 1);
    QJsonArray hypotheses;
    for (std::size_t k = 0; k < hypothesisCount; ++k) {
        const QString text = fromUtf8(result.hypothesisText(k));
        QJsonArray tokens, ids, logProbs;
        double score = 0.0;
        bool complete = true; // every sentence ended with EOS, none stopped at the maximum length
        for (const auto &segment : result.segments) {
            if (segment.hypotheses.empty())
                continue;
            const engine::Hypothesis &hypothesis = segment.hypotheses[segment.hypothesisAt(k)];
            for (std::size_t i = 0; i < hypothesis.tokens.size(); ++i) {
                tokens.append(fromUtf8(target.idToPiece(hypothesis.tokens[i])));
                ids.append(hypothesis.tokens[i]);
                logProbs.append(rounded(hypothesis.tokenLogProbs[i], 1e6));
            }
            score += hypothesis.score;
            complete = complete && hypothesis.endedWithEos;
        }
        hypotheses.append(QJsonObject{{"text", text},
                                      {"tokens", tokens},
                                      {"token_ids", ids},
                                      {"token_logprobs", logProbs},
                                      {"score", rounded(score, 1e6)},
                                      {"complete", complete}});
    }
    return hypotheses;
}

// "source_tokens" (the alignment's columns) and "segments" (each sentence's place in the source
// and the translation, its first token of each, its coverage) into `object`; returns the number
// of source tokens.
std::size_t addSegmentsJson(QJsonObject &object, const std::string &source8,
                            const engine::TranslationResult &result,
                            const engine::CoverageOptions &coverageOptions)
{
    QJsonArray sourceTokens, segments;
    std::size_t columns = 0, rows = 0;
    const engine::Utf8Offsets sourceOffsets(source8), targetOffsets(result.text);
    for (const auto &segment : result.segments) {
        const engine::TextSpan from = sourceOffsets.utf16(segment.source);
        const engine::TextSpan to = targetOffsets.utf16(segment.target);
        segments.append(QJsonObject{{"source", QJsonArray{qint64(from.begin), qint64(from.end)}},
                                    {"target", QJsonArray{qint64(to.begin), qint64(to.end)}},
                                    {"first_source_token", qint64(columns)},
                                    {"first_target_token", qint64(rows)},
                                    {"coverage", coverageJson(segment, source8, sourceOffsets,
                                                              coverageOptions)}});
        for (const auto &token : segment.sourceTokens)
            sourceTokens.append(fromUtf8(token.piece));
        columns += segment.sourceTokens.size();
        rows += segment.hypotheses.empty() ? 0 : segment.hypotheses.front().tokens.size();
    }
    object["source_tokens"] = sourceTokens;
    object["segments"] = segments;
    return columns;
}

// The best hypothesis's alignment over all `columns` source tokens, block-diagonal (each
// sentence's rows attend to its own columns); null for a model without attention.
QJsonValue alignmentJson(const engine::TranslationResult &result, std::size_t columns)
{
    QJsonArray alignment;
    std::size_t column = 0;
    bool attends = false;
    for (const auto &segment : result.segments) {
        const engine::Tensor &matrix = segment.alignment();
        attends = attends || !matrix.empty();
        const std::size_t width = segment.sourceTokens.size();
        const std::size_t height =
            segment.hypotheses.empty() ? 0 : segment.hypotheses.front().tokens.size();
        for (std::size_t i = 0; i < height; ++i) {
            QJsonArray row;
            for (std::size_t j = 0; j < columns; ++j) {
                double value = 0.0;
                if (!matrix.empty() && j >= column && j < column + width)
                    value = matrix.data<float>()[i * width + (j - column)];
                row.append(rounded(value, 1e4));
            }
            alignment.append(row);
        }
        column += width;
    }
    // All zeros would read as "attended to nothing"; a model without attention has no alignment.
    return attends ? QJsonValue(alignment) : QJsonValue();
}

QJsonObject toJson(const QByteArray &line, const engine::TranslationResult &result,
                   const DecodingOptions &options, const engine::TranslationModel &model,
                   double elapsedMs, bool withAlignment,
                   const engine::CoverageOptions &coverageOptions)
{
    QJsonObject object;
    object["source"] = QString::fromUtf8(line);
    object["translation"] = fromUtf8(result.text);
    object["model"] = QString::fromStdString(model.id());
    object["strategy"] = fromNlohmann(engine::decodingOptionsToJson(options));
    object["elapsed_ms"] = rounded(elapsedMs, 1000);
    object["hypotheses"] = hypothesesJson(result, model.targetTokenizer());
    // Spans a model without placeholders lost (TranslatedSegment::missingSpans).
    QJsonArray missingSpans;
    for (const auto &segment : result.segments)
        for (const std::string &span : segment.missingSpans)
            missingSpans.append(fromUtf8(span));
    object["missing_spans"] = missingSpans;
    const std::string source8(line.constData(), line.size());
    const std::size_t columns = addSegmentsJson(object, source8, result, coverageOptions);
    if (withAlignment)
        object["alignment"] = alignmentJson(result, columns);
    return object;
}

// The words of `translation` WordCheck marks (the Translate view's dotted underline); null
// without a dictionary.
QJsonValue unknownWordsJson(const WordCheck *check, const QString &translation,
                            const QString &source)
{
    if (!check)
        return QJsonValue();
    QJsonArray words;
    for (const UnknownWord &w : check->unknownWords(translation, source))
        words.append(QJsonObject{{"word", w.word}, {"range", QJsonArray{w.begin, w.end}}});
    return words;
}

// --attention all: one object per segment, each kind the model has → [layers][heads][rows][columns]
// (engine/layers/attentioninspector.h), {} for a model that shows no more than "alignment".
QJsonArray attentionJson(engine::Translator &translator, const engine::TranslationResult &result)
{
    engine::AttentionInspector *inspector = translator.model().decoder().attentionInspector();
    QJsonArray segments;
    for (const auto &segment : result.segments) {
        QJsonObject kinds;
        if (const std::optional<engine::AttentionMaps> maps = translator.inspectAttention(segment))
            for (const engine::AttentionKind kind : inspector->attentionKinds()) {
                const engine::Tensor &tensor = maps->of(kind);
                const float *p = tensor.data<float>();
                QJsonArray layers;
                for (std::int64_t l = 0; l < tensor.dim(0); ++l) {
                    QJsonArray heads;
                    for (std::int64_t h = 0; h < tensor.dim(1); ++h) {
                        QJsonArray rows;
                        for (std::int64_t i = 0; i < tensor.dim(2); ++i) {
                            QJsonArray row;
                            for (std::int64_t j = 0; j < tensor.dim(3); ++j)
                                row.append(rounded(*p++, 1e4));
                            rows.append(row);
                        }
                        heads.append(rows);
                    }
                    layers.append(heads);
                }
                kinds[QString::fromLatin1(engine::attentionKindName(kind))] = layers;
            }
        segments.append(kinds);
    }
    return segments;
}

// What --save-history records: the line, every hypothesis, the best one's alignment with its
// token labels — texts and labels taken from the JSON object (toJson()) so that both say the
// same. The alignment is sparse: each sentence's rows hold only that sentence's source tokens.
HistoryEntry historyEntry(const QJsonObject &object, const engine::TranslationResult &result,
                          const ModelInfo &info)
{
    HistoryEntry entry;
    entry.kind = HistoryKind::Translation;
    entry.modelId = info.id;
    entry.modelVersion = info.version;
    entry.sourceLanguage = info.sourceLanguage;
    entry.targetLanguage = info.targetLanguage;
    entry.settings = object["strategy"].toObject();
    entry.inputText = object["source"].toString();
    entry.elapsedMs = object["elapsed_ms"].toDouble();
    const QJsonArray hypotheses = object["hypotheses"].toArray();
    for (int k = 0; k < hypotheses.size(); ++k) {
        const QJsonObject h = hypotheses[k].toObject();
        HistoryOutput output;
        output.rank = k;
        output.text = h["text"].toString();
        output.score = h["score"].toDouble();
        if (k == 0) {
            HistoryAlignment a;
            std::size_t column = 0;
            for (const auto &segment : result.segments) {
                const engine::Tensor &matrix = segment.alignment();
                const int width = int(segment.sourceTokens.size());
                const std::size_t height =
                    segment.hypotheses.empty() ? 0 : segment.hypotheses.front().tokens.size();
                for (std::size_t i = 0; i < height; ++i) {
                    a.rowStarts << int(column);
                    a.rowLengths << (matrix.empty() ? 0 : width);
                    if (!matrix.empty())
                        a.weights.append(QList<float>(matrix.data<float>() + i * width,
                                                      matrix.data<float>() + (i + 1) * width));
                }
                column += std::size_t(width);
            }
            a.rows = int(a.rowStarts.size());
            a.cols = int(column);
            if (!a.weights.isEmpty()) {
                for (const QJsonValue &label : object["source_tokens"].toArray())
                    a.sourceTokens.append(label.toString());
                for (const QJsonValue &label : h["tokens"].toArray())
                    a.targetTokens.append(label.toString());
                // One sentence: every row spans all columns, the dense form.
                if (a.weights.size() == qsizetype(a.rows) * a.cols) {
                    a.rowStarts.clear();
                    a.rowLengths.clear();
                }
                output.alignment = a;
            }
        }
        entry.outputs.append(output);
    }
    return entry;
}

// How much of a regular file is looked at to tell text from binary data.
constexpr qint64 kBinarySniffBytes = 8192;

// Why `head` (the start of an input) is binary data rather than text, or "" when it looks like
// text: a NUL byte, or more control characters than text has (tab, line ends and form feed
// aside). Text in a legacy encoding is not binary: it is reported line by line as not UTF-8.
QString binaryReason(const QByteArray &head)
{
    if (const qsizetype nul = head.indexOf('\0'); nul >= 0)
        return QStringLiteral("a NUL byte at offset %1").arg(nul);
    qsizetype controls = 0;
    for (const char c : head) {
        const auto u = static_cast<unsigned char>(c);
        controls += u < 0x20 && u != '\t' && u != '\n' && u != '\r' && u != '\f' ? 1 : 0;
    }
    if (head.size() >= 16 && controls * 20 > head.size())
        return QStringLiteral("%1 control characters in its first %2 bytes")
            .arg(controls)
            .arg(head.size());
    return QString();
}

// Where to cut `line` within its first `limit` bytes: after its last whole sentence there (the
// start of the one after it), else (one sentence longer than the limit, or text without sentence
// ends) at the last word start, as the Translator cuts an overlong sentence into chunks; 0 when
// there is neither. The splitter sees a little more than the limit, so that a sentence ending
// right at it is known to end there.
qsizetype cutPoint(const engine::SentenceSplitter &splitter, const QByteArray &line,
                   qsizetype limit)
{
    QByteArray head = line.left(std::min(line.size(), limit + 256));
    // Whole UTF-8 characters only: the cut may fall inside one.
    while (!head.isEmpty() && (static_cast<unsigned char>(head.back()) & 0xc0) == 0x80)
        head.chop(1);
    if (!head.isEmpty() && (static_cast<unsigned char>(head.back()) & 0x80))
        head.chop(1);
    std::vector<engine::TextSpan> spans;
    try {
        spans = splitter.split(std::string_view(head.constData(), std::size_t(head.size())));
    } catch (const std::exception &) {
        return 0; // not UTF-8: the whole line is reported as such
    }
    // The last span is cut by the window; one that ends within the limit and is followed by
    // another is whole.
    qsizetype cut = 0;
    for (std::size_t i = 0; i + 1 < spans.size(); ++i)
        if (qsizetype(spans[i].end) <= limit)
            cut = qsizetype(spans[i].end);
    if (cut > 0)
        return cut;
    for (qsizetype i = std::min(limit, head.size() - 1); i > 0; --i)
        if (head[i] == ' ' || head[i] == '\t')
            return i;
    return 0;
}

} // namespace

Command translateCommand();

// The output options besides the decoding: --json, --save-history, --attention and the
// coverage threshold.
struct TranslateOutput
{
    bool json = false;
    bool saveHistory = false;
    bool allAttention = false;
    engine::CoverageOptions coverage;
};

// The arguments checked before the (slow) model load: they parse, and -o is none of the inputs.
// Returns the exit code for bad ones; fills `inputs` (FILE arguments in order, or stdin: "-").
std::optional<int> checkArguments(QCommandLineParser &parser, const QStringList &args,
                                  QTextStream &err, QStringList &inputs)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(translateCommand().options);
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli translate")} + args)) {
        err << "glosa-cli translate: " << parser.errorText() << "\n";
        return 2;
    }
    // Check that the values parse before the (slow) model load; they are validated together with
    // the model's defaults below.
    try {
        decodingOptionsFromCommandLine(parser, DecodingOptions());
    } catch (const std::invalid_argument &error) {
        err << "glosa-cli translate: " << error.what() << "\n";
        return 2;
    }
    inputs = parser.positionalArguments();
    if (inputs.isEmpty())
        inputs << QStringLiteral("-");
    const QString outputPath = parser.value("output");
    for (const QString &name : inputs)
        if (!outputPath.isEmpty() && name != QLatin1String("-") && isSameFile(name, outputPath)) {
            err << "glosa-cli translate: " << outputPath << " is the input " << name
                << " itself; write the translation to another file\n";
            return 2;
        }
    return std::nullopt;
}

// The model the options name, loaded; the exit code when it cannot be.
std::shared_ptr<engine::TranslationModel> loadModel(const QCommandLineParser &parser,
                                                    QTextStream &err, ModelInfo &info, int &exit)
{
    QString error;
    const std::optional<QString> modelId = modelFromCommandLine(parser, &error);
    if (!modelId) {
        err << "glosa-cli translate: " << error << "\n";
        exit = parser.isSet("model") ? 2 : 1;
        return nullptr;
    }
    const std::optional<engine::ComputeType> computeType =
        computeTypeFromCommandLine(parser, &error);
    if (!computeType) {
        err << "glosa-cli translate: " << error << "\n";
        exit = 2;
        return nullptr;
    }
    std::shared_ptr<engine::TranslationModel> model =
        loadTranslationModel(*modelId, &error, &info, *computeType);
    if (!model) {
        err << "glosa-cli translate: " << error.simplified() << "\n";
        exit = 1;
    }
    return model;
}

// The decoding options: the model's defaults, the command line's, and the target prefix
// (--target-prefix-text, --prefix-sentence); throws std::invalid_argument for bad ones.
DecodingOptions decodingFor(const QCommandLineParser &parser, engine::TranslationModel &model)
{
    DecodingOptions decoding =
        decodingOptionsFromCommandLine(parser, model.defaultDecodingOptions());
    if (parser.isSet("target-prefix-text")) {
        // Words, as a person writes them: the model's own target tokenizer makes the ids
        // (the same pieces the model would produce for them at the start of a sentence).
        decoding.targetPrefix.clear();
        const std::string words = parser.value("target-prefix-text").toStdString();
        for (const engine::Token &token : model.targetTokenizer().encode(words))
            decoding.targetPrefix.push_back(token.id);
        if (decoding.targetPrefix.empty())
            throw std::invalid_argument("--target-prefix-text is empty");
    }
    if (parser.isSet("prefix-sentence")) {
        bool ok = false;
        const int sentence = parser.value("prefix-sentence").toInt(&ok);
        if (!ok || sentence < 1)
            throw std::invalid_argument(QStringLiteral("--prefix-sentence '%1' is not a sentence "
                                                       "number (1 is the first)")
                                            .arg(parser.value("prefix-sentence"))
                                            .toStdString());
        if (decoding.targetPrefix.empty())
            throw std::invalid_argument("--prefix-sentence needs --target-prefix-text");
        decoding.targetPrefixSentence = sentence - 1;
    }
    decoding.validate(model.decoder().vocabularySize());
    return decoding;
}

// --json, --save-history, --attention and --coverage-threshold; "" or why they are refused.
QString outputFor(const QCommandLineParser &parser, engine::TranslationModel &model,
                  TranslateOutput &output)
{
    output.json = parser.isSet("json");
    output.saveHistory = parser.isSet("save-history");
    const QString attention = parser.value("attention");
    if (attention != QLatin1String("cross") && attention != QLatin1String("all"))
        return QStringLiteral("--attention must be cross or all, not '%1'").arg(attention);
    output.allAttention = attention == QLatin1String("all");
    output.coverage = model.coverageOptions();
    if (parser.isSet("coverage-threshold")) {
        bool ok = false;
        output.coverage.threshold = parser.value("coverage-threshold").toFloat(&ok);
        if (!ok || !std::isfinite(output.coverage.threshold) || output.coverage.threshold < 0.0f)
            return QStringLiteral("--coverage-threshold '%1' is not a number >= 0")
                .arg(parser.value("coverage-threshold"));
    }
    if (output.allAttention && !output.json)
        return QStringLiteral("--attention all needs --json");
    return {};
}

// One `translate` over its inputs, line by line, with one model: the status it ends with.
class TranslateRun
{
public:
    TranslateRun(const QCommandLineParser &parser, const CommandIo &io, QTextStream &out,
                 std::shared_ptr<engine::TranslationModel> model, const ModelInfo &info,
                 const DecodingOptions &decoding, const TranslateOutput &output)
        : m_io(io), m_err(io.err), m_out(out), m_model(model), m_info(info), m_decoding(decoding),
          m_output(output), m_translator(model), m_splitter(model->sourceLanguage()),
          m_guard(parser, info)
    {
    }

    // Reads one input ("-": stdin) and translates it line by line.
    void translateInput(const QString &name)
    {
        const bool isStdin = name == QLatin1String("-");
        const QString shown = isStdin ? QStringLiteral("stdin") : name;
        QFile input(isStdin ? QString() : name);
        if (!isStdin && QFileInfo(name).isDir()) {
            m_err << "glosa-cli translate: " << name << " is a folder, not a text file\n";
            m_status = 1;
            return;
        }
        // By descriptor: on a FILE* (fgets) Qt's readLine stops at a NUL byte and loses the rest.
        if (!(isStdin ? input.open(STDIN_FILENO, QIODevice::ReadOnly)
                      : input.open(QIODevice::ReadOnly))) {
            m_err << "glosa-cli translate: cannot read " << shown << ": " << input.errorString()
                  << "\n";
            m_status = 1;
            return;
        }
        // A photo or an archive is refused with one message, not an error (with its raw bytes)
        // for every "line" of it: a regular file is looked at before anything is translated;
        // a pipe, a line at a time (a NUL byte ends it).
        if (!input.isSequential()) {
            if (const QString why = binaryReason(input.peek(kBinarySniffBytes)); !why.isEmpty()) {
                m_err << "glosa-cli translate: " << shown << " is binary data, not text (" << why
                      << "); nothing was translated\n";
                m_status = 1;
                return;
            }
        }
        for (qint64 lineNumber = 1;; ++lineNumber) {
            // At most the limit and "\r\n" (readLine reads one byte less than it is given).
            QByteArray line = input.readLine(limits::kMaxLineBytes + 3);
            if (line.isEmpty() && (input.atEnd() || !input.isReadable()))
                break;
            // (atEnd() is no help on a pipe: it is true whenever the pipe is momentarily empty.)
            if (input.isSequential() && isBinaryLine(line)) {
                m_err << "glosa-cli translate: " << shown << ": line " << lineNumber
                      << " is binary data, not text; the rest is not read\n";
                m_status = 1;
                break;
            }
            translateLine(input, line, lineNumber);
        }
    }

    int status() const { return m_status == 0 && m_wrongLanguage ? kExitWrongLanguage : m_status; }

private:
    // On a pipe nothing is looked at ahead: a line that is mostly control characters ends the
    // input (a NUL byte or two in text are translated).
    static bool isBinaryLine(const QByteArray &line)
    {
        if (line.size() < 8)
            return false;
        qsizetype controls = 0;
        for (const char c : line)
            controls += static_cast<unsigned char>(c) < 0x09 ? 1 : 0;
        return controls * 10 > line.size();
    }

    // One line of the input, its line end written after it.
    void translateLine(QFile &input, QByteArray &line, qint64 lineNumber)
    {
        int part = 0;
        const QString refused = translateOverlongStart(input, line, lineNumber, part);
        if (!refused.isEmpty()) {
            m_err << "glosa-cli translate: line " << lineNumber << ": " << refused << "\n";
            m_status = 1;
            if (m_output.json)
                m_out << QJsonDocument(QJsonObject{{"line", lineNumber}, {"error", refused}})
                             .toJson(QJsonDocument::Compact);
            m_out << "\n";
            return;
        }
        if (line.endsWith('\n'))
            line.chop(1);
        if (line.endsWith('\r'))
            line.chop(1);
        if (part == 0 || !line.isEmpty())
            translatePiece(line, lineNumber, part > 0 ? part + 1 : 0);
        m_out << "\n";
        m_out.flush();
        m_err.flush();
    }

    // An overlong line is translated a stretch of whole sentences at a time, as the app
    // translates a long paragraph, until what is left of it fits (in `line`; `part` counts the
    // stretches). Only a stretch of the limit's length without a sentence end or a space in it
    // is refused (and the rest of its line skipped, never held whole): then why.
    QString translateOverlongStart(QFile &input, QByteArray &line, qint64 lineNumber, int &part)
    {
        while (!line.endsWith('\n') && line.size() > limits::kMaxLineBytes + 1) {
            const qsizetype cut = cutPoint(m_splitter, line, limits::kMaxLineBytes);
            if (cut <= 0) {
                for (QByteArray rest;
                     !(rest = input.readLine(1 << 16)).isEmpty() && !rest.endsWith('\n');) {
                }
                return QStringLiteral("longer than the limit of %1 bytes a line, with no "
                                      "sentence end or space to split it at; not "
                                      "translated (break it into lines)")
                    .arg(limits::kMaxLineBytes);
            }
            translatePiece(line.left(cut), lineNumber, ++part);
            // The white space between the sentences is kept as it was.
            qsizetype next = cut;
            while (next < line.size() && (line[next] == ' ' || line[next] == '\t'))
                ++next;
            if (m_output.json)
                m_out << "\n";
            else
                m_out << QString::fromUtf8(line.mid(cut, next - cut));
            line.remove(0, next);
            line += input.readLine(limits::kMaxLineBytes + 3 - line.size());
        }
        return {};
    }

    // Translates one piece of a line (the whole line, or a stretch of whole sentences of an
    // overlong one) and writes its translation; `part` > 0 numbers the pieces of an overlong
    // line.
    void translatePiece(const QByteArray &line, qint64 lineNumber, int part)
    {
        const QString source = QString::fromUtf8(line);
        const QString where = part > 0
                                  ? QStringLiteral("line %1 (part %2)").arg(lineNumber).arg(part)
                                  : QStringLiteral("line %1").arg(lineNumber);
        if (const QString why = m_guard.check(source); !why.isEmpty()) {
            m_err << "glosa-cli translate: " << where << " " << why << "\n";
            m_wrongLanguage = true;
            if (m_output.json)
                m_out << QJsonDocument(QJsonObject{{"source", source}, {"error", why}})
                             .toJson(QJsonDocument::Compact);
            return;
        }
        QElapsedTimer timer;
        timer.start();
        try {
            const engine::TranslationResult result =
                m_translator.translate(std::string_view(line.constData(), line.size()), m_decoding);
            writeResult(line, result, timer.nsecsElapsed() / 1e6);
            reportSegments(result, where);
        } catch (const std::exception &failure) {
            m_err << "glosa-cli translate: " << where << ": " << failure.what() << "\n";
            m_status = 1;
            if (m_output.json)
                m_out << QJsonDocument(QJsonObject{{"source", source},
                                                   {"error", QString::fromUtf8(failure.what())}})
                             .toJson(QJsonDocument::Compact);
        }
    }

    // The translation as text or JSON, and into the history with --save-history.
    void writeResult(const QByteArray &line, const engine::TranslationResult &result,
                     double elapsedMs)
    {
        if (m_output.json || m_output.saveHistory) {
            QJsonObject object = toJson(line, result, m_decoding, *m_model, elapsedMs,
                                        m_output.json, m_output.coverage);
            if (m_output.allAttention)
                object["attention"] = attentionJson(m_translator, result);
            if (m_output.json) {
                if (!m_wordCheckLoaded) // on the first line only: it reads the dictionary
                    m_wordCheck = WordCheck::forLanguage(m_info.targetLanguage);
                m_wordCheckLoaded = true;
                object["unknown_words"] =
                    unknownWordsJson(m_wordCheck.get(), object["translation"].toString(),
                                     object["source"].toString());
            }
            if (m_output.json)
                m_out << QJsonDocument(object).toJson(QJsonDocument::Compact);
            if (m_output.saveHistory && !line.isEmpty() &&
                saveToHistory(historyEntry(object, result, m_info), m_io.historyPath, m_err) == 0)
                m_status = 1;
        }
        if (!m_output.json)
            m_out << fromUtf8(result.text);
    }

    // Says so when the maximum length cut a sentence (the output is then incomplete), and when
    // a model without placeholders lost numbers, URLs... or the terms of --keep and
    // --keep-file, which are kept the same way.
    void reportSegments(const engine::TranslationResult &result, const QString &where)
    {
        const std::vector<std::string> &keep = m_decoding.keepTerms;
        for (std::size_t i = 0; i < result.segments.size(); ++i) {
            const auto &hypotheses = result.segments[i].hypotheses;
            if (!hypotheses.empty() && !hypotheses.front().endedWithEos)
                m_err << "glosa-cli translate: " << where << ": sentence " << i + 1
                      << " stopped at the maximum length (" << hypotheses.front().tokens.size()
                      << " tokens); its translation may be incomplete\n";
            QStringList missing;
            bool keptTerm = false;
            for (const std::string &span : result.segments[i].missingSpans) {
                missing << QStringLiteral("\"%1\"").arg(fromUtf8(span));
                keptTerm = keptTerm || std::find(keep.begin(), keep.end(), span) != keep.end();
            }
            if (!missing.isEmpty())
                m_err << "glosa-cli translate: " << where << ": sentence " << i + 1
                      << ": the translation lost " << missing.join(QStringLiteral(", "))
                      << (keptTerm ? " (this model cannot protect numbers, URLs, code or the "
                                     "terms of --keep and --keep-file: check them)\n"
                                   : " (this model cannot protect numbers, URLs and code: "
                                     "check them)\n");
        }
    }

    const CommandIo &m_io;
    QTextStream &m_err;
    QTextStream &m_out;
    std::shared_ptr<engine::TranslationModel> m_model;
    const ModelInfo &m_info;
    const DecodingOptions &m_decoding;
    const TranslateOutput &m_output;
    engine::Translator m_translator;
    const engine::SentenceSplitter m_splitter;
    const LanguageGuard m_guard;
    std::shared_ptr<const WordCheck> m_wordCheck; // --json: the target language's dictionary
    bool m_wordCheckLoaded = false;
    int m_status = 0;
    bool m_wrongLanguage = false; // a piece was not translated for its language
};

int runTranslateCommand(const QStringList &args, const CommandIo &io)
{
    QTextStream &err = io.err;
    QCommandLineParser parser;
    QStringList inputs;
    if (const std::optional<int> refused = checkArguments(parser, args, err, inputs))
        return *refused;
    ModelInfo info;
    int exit = 0;
    const std::shared_ptr<engine::TranslationModel> model = loadModel(parser, err, info, exit);
    if (!model)
        return exit;
    DecodingOptions decoding;
    try {
        decoding = decodingFor(parser, *model);
    } catch (const std::exception &invalid) {
        err << "glosa-cli translate: " << invalid.what() << "\n";
        return 2;
    }
    TranslateOutput output;
    if (const QString refused = outputFor(parser, *model, output); !refused.isEmpty()) {
        err << "glosa-cli translate: " << refused << "\n";
        return 2;
    }
    // -o OUT: written through a SaveFile, so OUT is replaced only once everything is translated.
    const QString outputPath = parser.value("output");
    std::optional<SaveFile> outputFile;
    std::optional<QTextStream> outputStream;
    if (!outputPath.isEmpty()) {
        outputFile.emplace(outputPath);
        if (!outputFile->open(QIODevice::WriteOnly)) {
            err << "glosa-cli translate: cannot write " << outputPath << ": "
                << outputFile->errorString() << "\n";
            return 1;
        }
        outputStream.emplace(&*outputFile);
    }
    TranslateRun run(parser, io, outputStream ? *outputStream : io.out, model, info, decoding,
                     output);
    for (const QString &name : inputs)
        run.translateInput(name);
    if (outputFile && !outputFile->commit()) {
        err << "glosa-cli translate: cannot write " << outputPath << ": "
            << outputFile->errorString() << "\n";
        return 1;
    }
    return run.status();
}

Command translateCommand()
{
    Command help;
    help.name = QStringLiteral("translate");
    help.synopsis = QStringLiteral("[--model ID_OR_DIR | --from LANG --to LANG] [decoding "
                                   "options] [--json [--attention cross|all]] [--save-history] "
                                   "[--force-language] [-o OUT] [FILE...]");
    help.summary = QStringLiteral("Translate files or stdin line by line.");
    help.description =
        QStringLiteral("Reads one text per line from each FILE in turn, or stdin without one (or "
                       "for \"-\"), and writes one translation per line on stdout, in order, "
                       "flushed after each line. A line may hold several sentences; an empty line "
                       "gives an empty line; a line longer than 32 KiB is translated a stretch of "
                       "whole sentences at a time. A line that is not UTF-8 gives an empty line "
                       "and a message on stderr (exit code 1); binary data (a photo, an archive) "
                       "is refused with one message. -o OUT writes the translations to OUT "
                       "instead, replacing it only once all are written (never an input "
                       "file).\n\nA line that looks like another language than the model's "
                       "source (Spanish given to English → Spanish) is not translated: an empty "
                       "line, a message on stderr naming the language and the --from/--to that "
                       "translate it, and exit code 3 at the end, unless --force-language.\n\n") +
        decodingHelpParagraph() +
        QStringLiteral("\n\n--json writes one object per line: the translation, every "
                       "hypothesis with its tokens, token log-probabilities and score, the "
                       "source tokens, the alignment and the settings in effect; with "
                       "--attention all also every attention map of the best hypothesis. Each "
                       "segment carries its \"coverage\": the attention mass every source token "
                       "received and the source words whose mass is below --coverage-threshold "
                       "(likely omissions; none for a model without attention). "
                       "\"unknown_words\": the translation's words in neither the target "
                       "language's Hunspell dictionary nor the source (null without a "
                       "dictionary).");
    help.options = modelCommandLineOptions() + decodingCommandLineOptions();
    help.options += QList<QCommandLineOption>{
        {"json", "One JSON object per line."},
        {"attention",
         "With --json: cross (the default) gives the alignment; all also gives every layer's and "
         "head's cross-, encoder self- and decoder self-attention the model has.",
         "cross|all", "cross"},
        {"coverage-threshold",
         QStringLiteral("With --json: flag a source word as a likely omission when the total "
                        "attention its pieces received is below this (default: the model's, "
                        "its model.json's decoding.coverage_threshold or %1; 0 flags none).")
             .arg(double(engine::CoverageOptions().threshold)),
         "MASS"},
        {"save-history", "Also record each translation in the history (--history PATH)."},
        {{"o", "output"},
         "Write the translations to OUT (replaced only once complete) instead of stdout.",
         "OUT"},
        forceLanguageOption(),
        {"target-prefix-text",
         "Force the translation to start with these words (tokenized by the model; the search "
         "goes on from them). In every sentence of a line unless --prefix-sentence.",
         "TEXT"},
        {"prefix-sentence",
         "Force --target-prefix-text in sentence N of each line only (1 is the first).", "N"},
    };
    help.examples = {
        QStringLiteral("echo \"I would like a cup of coffee.\" | glosa-cli translate"),
        QStringLiteral("glosa-cli translate notes.txt > notas.txt"),
        QStringLiteral("glosa-cli translate notes.txt -o notas.txt"),
        QStringLiteral("echo \"¿Dónde está la estación?\" | glosa-cli translate --from es"),
        QStringLiteral("glosa-cli translate --model transformer-en-es --strategy beam "
                       "--beam-size 5 --n-best 3 --json < sentences.txt"),
        QStringLiteral("glosa-cli translate --strategy sample --top-p 0.9 --seed 7 --save-history "
                       "< notes.txt"),
        QStringLiteral("echo \"The black cat sleeps. It is late.\" | glosa-cli translate "
                       "--target-prefix-text \"El gato negro\" --prefix-sentence 1"),
    };
    help.run = runTranslateCommand;
    return help;
}

} // namespace glosa::cli
