#include "app/cli/translatecommand.h"

#include "app/cli/help.h"
#include "app/cli/historycommand.h"
#include "app/core/history/entry.h"
#include "app/core/limits.h"
#include "app/core/modelcatalog.h"
#include "app/core/pluginregistry.h"
#include "engine/text/unicode.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <cmath>
#include <unistd.h>
#include <functional>
#include <optional>

namespace glosa::cli {

namespace {

using engine::DecodingOptions;

// A usage error: exit code 2.
struct UsageError
{
    QString message;
};

double rounded(double value, double scale)
{
    return std::isfinite(value) ? std::round(value * scale) / scale : value;
}

int parseInt(const QCommandLineParser &parser, const QString &name)
{
    bool ok = false;
    const QString text = parser.value(name);
    const int value = text.toInt(&ok);
    if (!ok)
        throw UsageError{QStringLiteral("--%1 '%2' is not an integer").arg(name, text)};
    return value;
}

float parseFloat(const QCommandLineParser &parser, const QString &name)
{
    bool ok = false;
    const QString text = parser.value(name);
    const float value = text.toFloat(&ok);
    if (!ok || !std::isfinite(value))
        throw UsageError{QStringLiteral("--%1 '%2' is not a number").arg(name, text)};
    return value;
}

// The model's defaults, overridden by whatever the command line sets.
DecodingOptions optionsFrom(const QCommandLineParser &parser, DecodingOptions options)
{
    auto name = [](const QString &value) { return value.toStdString(); };
    try {
        if (parser.isSet("strategy"))
            options.strategy = engine::searchStrategyFromName(name(parser.value("strategy")));
        if (parser.isSet("length-normalization"))
            options.lengthNormalization =
                engine::lengthNormalizationFromName(name(parser.value("length-normalization")));
        if (parser.isSet("early-stopping"))
            options.earlyStopping =
                engine::earlyStoppingFromName(name(parser.value("early-stopping")));
    } catch (const std::invalid_argument &error) {
        throw UsageError{QString::fromStdString(error.what())};
    }
    const std::pair<const char *, int DecodingOptions::*> ints[] = {
        {"beam-size", &DecodingOptions::beamSize},
        {"n-best", &DecodingOptions::nBest},
        {"no-repeat-ngram", &DecodingOptions::noRepeatNgramSize},
        {"top-k", &DecodingOptions::topK},
        {"max-length", &DecodingOptions::maxLength},
        {"min-length", &DecodingOptions::minLength},
    };
    for (const auto &[option, field] : ints)
        if (parser.isSet(option))
            options.*field = parseInt(parser, option);
    const std::pair<const char *, float DecodingOptions::*> floats[] = {
        {"length-penalty", &DecodingOptions::lengthPenalty},
        {"coverage-penalty", &DecodingOptions::coveragePenalty},
        {"repetition-penalty", &DecodingOptions::repetitionPenalty},
        {"top-p", &DecodingOptions::topP},
        {"temperature", &DecodingOptions::temperature},
        {"max-length-ratio", &DecodingOptions::maxLengthRatio},
    };
    for (const auto &[option, field] : floats)
        if (parser.isSet(option))
            options.*field = parseFloat(parser, option);
    if (parser.isSet("length-penalty") && !parser.isSet("length-normalization"))
        options.lengthNormalization = engine::LengthNormalization::Gnmt;
    if (parser.isSet("seed")) {
        bool ok = false;
        const qulonglong seed = parser.value("seed").toULongLong(&ok);
        if (!ok)
            throw UsageError{QStringLiteral("--seed '%1' is not a non-negative integer")
                                 .arg(parser.value("seed"))};
        options.seed = seed;
    }
    return options;
}

QString fromUtf8(const std::string &text)
{
    return QString::fromUtf8(text.data(), text.size());
}

QJsonValue fromNlohmann(const nlohmann::json &value)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString("[" + value.dump() + "]"))
        .array()
        .at(0);
}

// `withAlignment`: also the dense "alignment" matrix (--json); --save-history alone takes the
// sentences' matrices from `result` instead (historyEntry()), since for a long line the dense
// JSON matrix is hundreds of MB.
QJsonObject toJson(const QByteArray &line, const engine::TranslationResult &result,
                   const DecodingOptions &options, const engine::TranslationModel &model,
                   double elapsedMs, bool withAlignment)
{
    const engine::Tokenizer &target = model.targetTokenizer();
    const QString source = QString::fromUtf8(line);
    QJsonObject object;
    object["source"] = source;
    object["translation"] = fromUtf8(result.text);
    object["model"] = QString::fromStdString(model.id());
    object["strategy"] = fromNlohmann(engine::decodingOptionsToJson(options));
    object["elapsed_ms"] = rounded(elapsedMs, 1000);

    // Hypotheses: the k-th of every segment, joined like the best translation.
    const std::string source8(line.constData(), line.size());
    std::size_t hypothesisCount = 0;
    for (const auto &segment : result.segments)
        hypothesisCount = std::max(hypothesisCount, segment.hypotheses.size());
    if (result.segments.empty())
        hypothesisCount = 1; // an empty line: one empty hypothesis
    QJsonArray hypotheses;
    for (std::size_t k = 0; k < hypothesisCount; ++k) {
        QString text;
        QJsonArray tokens, ids, logProbs;
        double score = 0.0;
        bool complete = true; // every sentence ended with EOS, none stopped at the maximum length
        std::size_t copied = 0;
        for (const auto &segment : result.segments) {
            if (segment.hypotheses.empty())
                continue;
            const std::size_t index = std::min(k, segment.hypotheses.size() - 1);
            const engine::Hypothesis &hypothesis = segment.hypotheses[index];
            text += fromUtf8(source8.substr(copied, segment.source.begin - copied));
            text += fromUtf8(segment.texts[index]);
            copied = segment.source.end;
            for (std::size_t i = 0; i < hypothesis.tokens.size(); ++i) {
                tokens.append(fromUtf8(target.idToPiece(hypothesis.tokens[i])));
                ids.append(hypothesis.tokens[i]);
                logProbs.append(rounded(hypothesis.tokenLogProbs[i], 1e6));
            }
            score += hypothesis.score;
            complete = complete && hypothesis.endedWithEos;
        }
        text += fromUtf8(source8.substr(std::min(copied, source8.size())));
        hypotheses.append(QJsonObject{{"text", text},
                                      {"tokens", tokens},
                                      {"token_ids", ids},
                                      {"token_logprobs", logProbs},
                                      {"score", rounded(score, 1e6)},
                                      {"complete", complete}});
    }
    object["hypotheses"] = hypotheses;

    // Source tokens (the columns) and the block-diagonal alignment of the best hypothesis.
    QJsonArray sourceTokens, segments;
    std::size_t columns = 0, rows = 0;
    const engine::Utf8Offsets sourceOffsets(source8), targetOffsets(result.text);
    for (const auto &segment : result.segments) {
        const engine::TextSpan from = sourceOffsets.utf16(segment.source);
        const engine::TextSpan to = targetOffsets.utf16(segment.target);
        segments.append(QJsonObject{{"source", QJsonArray{qint64(from.begin), qint64(from.end)}},
                                    {"target", QJsonArray{qint64(to.begin), qint64(to.end)}},
                                    {"first_source_token", qint64(columns)},
                                    {"first_target_token", qint64(rows)}});
        for (const auto &token : segment.sourceTokens)
            sourceTokens.append(fromUtf8(token.piece));
        columns += segment.sourceTokens.size();
        rows += segment.hypotheses.empty() ? 0 : segment.hypotheses.front().tokens.size();
    }
    object["source_tokens"] = sourceTokens;
    object["segments"] = segments;
    if (!withAlignment)
        return object;
    QJsonArray alignment;
    std::size_t column = 0;
    for (const auto &segment : result.segments) {
        const engine::Tensor &matrix = segment.alignment();
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
    object["alignment"] = alignment;
    return object;
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

} // namespace

std::shared_ptr<engine::Model> loadInstalledModel(const QString &idOrFolder, const QString &task,
                                                  QString *error, ModelInfo *loadedInfo,
                                                  engine::ComputeType computeType)
{
    PluginRegistry plugins;
    plugins.scan();
    ModelCatalog catalog;
    catalog.scan();
    const std::optional<ModelInfo> info = catalog.find(idOrFolder);
    if (!info) {
        *error = QStringLiteral("no model '%1': not an installed model id nor a model folder "
                                "(see 'glosa-cli models')")
                     .arg(idOrFolder);
        return nullptr;
    }
    if (!info->isValid()) {
        *error = QStringLiteral("model '%1' (%2) is broken: %3")
                     .arg(idOrFolder, info->folder, info->error);
        return nullptr;
    }
    if (info->task != task) {
        *error = QStringLiteral("model '%1' (%2) is a %3 model, not a %4 model")
                     .arg(info->id, info->folder, info->task, task);
        return nullptr;
    }
    std::shared_ptr<engine::Model> model = ModelCatalog::load(*info, plugins, error, computeType);
    if (model && loadedInfo)
        *loadedInfo = *info;
    return model;
}

QList<QCommandLineOption> decodingCommandLineOptions()
{
    // The defaults shown are DecodingOptions'; a model package's "decoding" object overrides them
    // (the bundled Transformers: beam 4, length penalty 0.6), and the command line overrides both.
    const DecodingOptions d;
    auto option = [](const char *name, const char *description, const char *value,
                     const QString &defaultValue) {
        QCommandLineOption o(QString::fromLatin1(name), QString::fromLatin1(description),
                             QString::fromLatin1(value));
        o.setDefaultValue(defaultValue);
        return o;
    };
    auto number = [](double v) { return QString::number(v); };
    return {
        option("strategy", "greedy, beam or sample.", "NAME",
               QString::fromLatin1(engine::searchStrategyName(d.strategy))),
        option("beam-size", "Beam size.", "N", number(d.beamSize)),
        option("n-best", "Hypotheses per sentence (beam or sample).", "N", number(d.nBest)),
        option("length-penalty", "GNMT length penalty alpha (0: off).", "A",
               number(d.lengthPenalty)),
        option("length-normalization", "gnmt, average or none.", "NAME",
               QString::fromLatin1(engine::lengthNormalizationName(d.lengthNormalization))),
        option("coverage-penalty", "GNMT coverage penalty beta (0: off).", "B",
               number(d.coveragePenalty)),
        option("early-stopping", "heuristic, bounded or eager.", "NAME",
               QString::fromLatin1(engine::earlyStoppingName(d.earlyStopping))),
        option("no-repeat-ngram", "Block repeated n-grams of this size (0: off).", "N",
               number(d.noRepeatNgramSize)),
        option("repetition-penalty", "CTRL repetition penalty (1: off).", "R",
               number(d.repetitionPenalty)),
        option("top-k", "Sample among the k best (0: off).", "K", number(d.topK)),
        option("top-p", "Nucleus sampling mass (1: off).", "P", number(d.topP)),
        option("temperature", "Sampling temperature (1: off).", "T", number(d.temperature)),
        option("seed", "Sampling seed.", "S", QString::number(d.seed)),
        option("max-length", "Maximum target tokens.", "N", number(d.maxLength)),
        option("max-length-ratio", "Also cap at ratio x source tokens (0: off).", "F",
               number(d.maxLengthRatio)),
        option("min-length", "Minimum target tokens before EOS.", "N", number(d.minLength)),
    };
}

const QString &decodingHelpParagraph()
{
    static const QString text = QStringLiteral(
        "Decoding options that are not given take the model package's own settings (its "
        "model.json \"decoding\": beam 4 with length penalty 0.6 for the bundled Transformers), "
        "then the defaults shown.");
    return text;
}

QList<QCommandLineOption> modelCommandLineOptions()
{
    return {
        {"model",
         "Model id or package folder (see 'glosa-cli models'); without it, the default "
         "model for --from/--to, else for the system language.",
         "ID_OR_DIR"},
        {"from", "Without --model: the source language (e.g. en, es) of the default model.",
         "LANG"},
        {"to", "Without --model: the target language of the default model.", "LANG"},
        {"compute-type",
         "Arithmetic of the model's large layers: auto (int8 where the package stores int8 "
         "weights, else float32), float32, or int8 (quantized at load: about 1.5-3x faster, "
         "output equal to float32 on most sentences).",
         "TYPE", "auto"},
    };
}

std::optional<engine::ComputeType> computeTypeFromCommandLine(const QCommandLineParser &parser,
                                                              QString *error)
{
    try {
        return engine::parseComputeType(parser.value("compute-type").toStdString());
    } catch (const std::invalid_argument &invalid) {
        *error = QString::fromStdString(invalid.what());
        return std::nullopt;
    }
}

std::optional<QString> modelFromCommandLine(const QCommandLineParser &parser, QString *error)
{
    if (parser.isSet("model")) {
        if (parser.isSet("from") || parser.isSet("to")) {
            *error = QStringLiteral("--from and --to choose a model: leave out --model or them");
            return std::nullopt;
        }
        return parser.value("model");
    }
    ModelCatalog catalog;
    catalog.scan();
    const QString translation = QStringLiteral("translation");
    const std::optional<ModelInfo> info =
        parser.isSet("from") || parser.isSet("to")
            ? catalog.defaultModel(translation, parser.value("from"), parser.value("to"))
            : catalog.defaultTranslationModel(QLocale::system().uiLanguages());
    if (!info) {
        *error =
            parser.isSet("from") || parser.isSet("to")
                ? QStringLiteral("no translation model from '%1' to '%2' is installed (see "
                                 "'glosa-cli models')")
                      .arg(parser.value("from").isEmpty() ? QStringLiteral("*")
                                                          : parser.value("from"),
                           parser.value("to").isEmpty() ? QStringLiteral("*") : parser.value("to"))
                : QStringLiteral("no translation model is installed (see 'glosa-cli "
                                 "models')");
        return std::nullopt;
    }
    return info->id;
}

engine::DecodingOptions decodingOptionsFromCommandLine(const QCommandLineParser &parser,
                                                       engine::DecodingOptions defaults)
{
    try {
        return optionsFrom(parser, std::move(defaults));
    } catch (const UsageError &error) {
        throw std::invalid_argument(error.message.toStdString());
    }
}

std::shared_ptr<engine::TranslationModel> loadTranslationModel(const QString &idOrFolder,
                                                               QString *error, ModelInfo *info,
                                                               engine::ComputeType computeType)
{
    std::shared_ptr<engine::Model> model =
        loadInstalledModel(idOrFolder, QStringLiteral("translation"), error, info, computeType);
    auto translation = std::dynamic_pointer_cast<engine::TranslationModel>(model);
    if (model && !translation)
        *error = QStringLiteral("model '%1': its plugin did not give a translation model")
                     .arg(idOrFolder);
    return translation;
}

int runTranslateCommand(const QStringList &args, const QString &historyPath, QTextStream &out,
                        QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(translateCommandHelp().options);
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli translate")} + args)) {
        err << "glosa-cli translate: " << parser.errorText() << "\n";
        return 2;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "glosa-cli translate: unexpected argument '" << parser.positionalArguments().first()
            << "' (text is read from stdin)\n";
        return 2;
    }
    // Check that the values parse before the (slow) model load; they are validated together with
    // the model's defaults below.
    try {
        optionsFrom(parser, DecodingOptions());
    } catch (const UsageError &error) {
        err << "glosa-cli translate: " << error.message << "\n";
        return 2;
    }
    QString error;
    const std::optional<QString> modelId = modelFromCommandLine(parser, &error);
    if (!modelId) {
        err << "glosa-cli translate: " << error << "\n";
        return parser.isSet("model") ? 2 : 1;
    }
    const std::optional<engine::ComputeType> computeType =
        computeTypeFromCommandLine(parser, &error);
    if (!computeType) {
        err << "glosa-cli translate: " << error << "\n";
        return 2;
    }
    ModelInfo info;
    const std::shared_ptr<engine::TranslationModel> model =
        loadTranslationModel(*modelId, &error, &info, *computeType);
    if (!model) {
        err << "glosa-cli translate: " << error.simplified() << "\n";
        return 1;
    }
    DecodingOptions decoding;
    try {
        decoding = optionsFrom(parser, model->defaultDecodingOptions());
        decoding.validate(model->decoder().vocabularySize());
    } catch (const UsageError &usage) {
        err << "glosa-cli translate: " << usage.message << "\n";
        return 2;
    } catch (const std::exception &invalid) {
        err << "glosa-cli translate: " << invalid.what() << "\n";
        return 2;
    }
    const bool json = parser.isSet("json");
    const bool saveHistory = parser.isSet("save-history");

    engine::Translator translator(model);
    QFile input;
    // By descriptor: on a FILE* (fgets) Qt's readLine stops at a NUL byte and loses the rest.
    if (!input.open(STDIN_FILENO, QIODevice::ReadOnly)) {
        err << "glosa-cli translate: cannot read stdin\n";
        return 1;
    }
    int status = 0;
    for (qint64 lineNumber = 1;; ++lineNumber) {
        // At most the limit and "\r\n" (readLine reads one byte less than it is given).
        QByteArray line = input.readLine(limits::kMaxLineBytes + 3);
        if (line.isEmpty() && (input.atEnd() || !input.isReadable()))
            break;
        // (atEnd() is no help on a pipe: it is true whenever the pipe is momentarily empty.)
        bool overlong = !line.endsWith('\n') && line.size() > limits::kMaxLineBytes + 1;
        if (overlong) // the rest of the line is skipped, never held whole
            for (QByteArray rest; !(rest = input.readLine(1 << 16)).isEmpty() &&
                                  !rest.endsWith('\n');) {
            }
        if (line.endsWith('\n'))
            line.chop(1);
        if (line.endsWith('\r'))
            line.chop(1);
        overlong = overlong || line.size() > limits::kMaxLineBytes;
        const QString source = QString::fromUtf8(line);
        QElapsedTimer timer;
        timer.start();
        try {
            if (overlong)
                throw std::length_error(QStringLiteral("longer than the limit of %1 bytes a line; "
                                                       "not translated (break it into lines or "
                                                       "use translate-doc)")
                                            .arg(limits::kMaxLineBytes)
                                            .toStdString());
            const engine::TranslationResult result =
                translator.translate(std::string_view(line.constData(), line.size()), decoding);
            const double elapsedMs = timer.nsecsElapsed() / 1e6;
            if (json || saveHistory) {
                const QJsonObject object = toJson(line, result, decoding, *model, elapsedMs, json);
                if (json)
                    out << QJsonDocument(object).toJson(QJsonDocument::Compact);
                if (saveHistory && !line.isEmpty() &&
                    saveToHistory(historyEntry(object, result, info), historyPath, err) == 0)
                    status = 1;
            }
            if (!json)
                out << fromUtf8(result.text);
            // Say so when the maximum length cut a sentence: the output is then incomplete.
            for (std::size_t i = 0; i < result.segments.size(); ++i) {
                const auto &hypotheses = result.segments[i].hypotheses;
                if (!hypotheses.empty() && !hypotheses.front().endedWithEos)
                    err << "glosa-cli translate: line " << lineNumber << ": sentence " << i + 1
                        << " stopped at the maximum length (" << hypotheses.front().tokens.size()
                        << " tokens); its translation may be incomplete\n";
            }
        } catch (const engine::InvalidUtf8Error &invalid) {
            err << "glosa-cli translate: line " << lineNumber << ": " << invalid.what() << "\n";
            status = 1;
            if (json)
                out << QJsonDocument(QJsonObject{{"source", source},
                                                 {"error", QString::fromUtf8(invalid.what())}})
                           .toJson(QJsonDocument::Compact);
        } catch (const std::exception &failure) {
            err << "glosa-cli translate: line " << lineNumber << ": " << failure.what() << "\n";
            status = 1;
            if (json)
                out << QJsonDocument(QJsonObject{{"source", source},
                                                 {"error", QString::fromUtf8(failure.what())}})
                           .toJson(QJsonDocument::Compact);
        }
        out << "\n";
        out.flush();
        err.flush();
    }
    return status;
}

CommandHelp translateCommandHelp()
{
    CommandHelp help;
    help.name = QStringLiteral("translate");
    help.synopsis = QStringLiteral("[--model ID_OR_DIR | --from LANG --to LANG] [decoding "
                                   "options] [--json] [--save-history] < TEXT");
    help.summary = QStringLiteral("Translate stdin line by line.");
    help.description =
        QStringLiteral("Reads one text per line on stdin and writes one translation per line on "
                       "stdout, in order, flushed after each line. A line may hold several "
                       "sentences; an empty line gives an empty line. A line that is not UTF-8 "
                       "gives an empty line and a message on stderr (exit code 1).\n\n") +
        decodingHelpParagraph() +
        QStringLiteral("\n\n--json writes one object per line: the translation, every "
                       "hypothesis with its tokens, token log-probabilities and score, the "
                       "source tokens, the alignment and the settings in effect.");
    help.options = modelCommandLineOptions() + decodingCommandLineOptions();
    help.options += QList<QCommandLineOption>{
        {"json", "One JSON object per line."},
        {"save-history", "Also record each translation in the history (--history PATH)."},
    };
    help.examples = {
        QStringLiteral("echo \"I would like a cup of coffee.\" | glosa-cli translate"),
        QStringLiteral("echo \"¿Dónde está la estación?\" | glosa-cli translate --from es"),
        QStringLiteral("glosa-cli translate --model transformer-en-es --strategy beam "
                       "--beam-size 5 --n-best 3 --json < sentences.txt"),
        QStringLiteral("glosa-cli translate --strategy sample --top-p 0.9 --seed 7 --save-history "
                       "< notes.txt"),
    };
    return help;
}

CommandHelp modelsCommandHelp()
{
    CommandHelp help;
    help.name = QStringLiteral("models");
    help.synopsis = QStringLiteral("[--all] [--json]");
    help.summary = QStringLiteral("List the installed models.");
    help.description = QStringLiteral(
        "Lists every usable model package: its id, task, languages, architecture, status and "
        "folder. Packages are looked for in $GLOSA_MODEL_PATH, the user's models folder and the "
        "bundled models, in that order; a package that declares \"default\": true is the one "
        "used for its direction when --model is not given (marked \"default\").");
    help.options = {{"all", "Also list broken and shadowed packages."},
                    {"json", "One JSON object per model."}};
    help.examples = {QStringLiteral("glosa-cli models"),
                     QStringLiteral("glosa-cli models --all --json")};
    return help;
}

int runModelsCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.addOptions(modelsCommandHelp().options);
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli models")} + args)) {
        err << "glosa-cli models: " << parser.errorText() << "\n";
        return 2;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "glosa-cli models: unexpected argument '" << parser.positionalArguments().first()
            << "'\n";
        return 2;
    }
    PluginRegistry plugins;
    plugins.scan();
    ModelCatalog catalog;
    catalog.scan();
    const bool all = parser.isSet("all");
    const bool json = parser.isSet("json");
    const QList<ModelInfo> models = all ? catalog.models() : catalog.availableModels();

    // The model used for its direction when no --model is given.
    auto isDefault = [&](const ModelInfo &m) {
        const auto chosen = catalog.defaultModel(m.task, m.sourceLanguage, m.targetLanguage);
        return m.isValid() && m.shadowedBy.isEmpty() && chosen && chosen->folder == m.folder;
    };
    auto statusOf = [&](const ModelInfo &m) {
        if (!m.isValid())
            return QStringLiteral("broken: %1").arg(m.error.simplified());
        if (!m.shadowedBy.isEmpty())
            return QStringLiteral("shadowed by %1").arg(m.shadowedBy);
        if (!plugins.pluginForArchitecture(m.architecture))
            return QStringLiteral("no plugin for architecture '%1'").arg(m.architecture);
        return QStringLiteral("ok");
    };
    auto languages = [](const ModelInfo &m) {
        return m.sourceLanguage.isEmpty()
                   ? m.targetLanguage
                   : m.sourceLanguage + QStringLiteral("->") + m.targetLanguage;
    };
    if (json) {
        for (const ModelInfo &m : models) {
            out << QJsonDocument(QJsonObject{{"id", m.id},
                                             {"name", m.name},
                                             {"task", m.task},
                                             {"source_language", m.sourceLanguage},
                                             {"target_language", m.targetLanguage},
                                             {"architecture", m.architecture},
                                             {"folder", m.folder},
                                             {"size", m.sizeOnDisk},
                                             {"default", isDefault(m)},
                                             {"status", statusOf(m)}})
                       .toJson(QJsonDocument::Compact)
                << "\n";
        }
        return 0;
    }
    // An aligned table; the folder goes last because it is the long one.
    QList<QStringList> table = {{"ID", "TASK", "LANGUAGES", "ARCHITECTURE", "STATUS", "FOLDER"}};
    for (const ModelInfo &m : models)
        table.append(
            {m.id.isEmpty() ? QStringLiteral("?") : m.id, m.task, languages(m), m.architecture,
             statusOf(m) + (isDefault(m) ? QStringLiteral(" (default)") : QString()), m.folder});
    QList<int> widths(table.first().size(), 0);
    for (const QStringList &row : table)
        for (int c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], int(row[c].size()));
    for (const QStringList &row : table) {
        QString line;
        for (int c = 0; c < row.size(); ++c)
            line += c + 1 < row.size() ? row[c].leftJustified(widths[c] + 2) : row[c];
        out << line << "\n";
    }
    if (models.isEmpty())
        err << "glosa-cli models: no models found in " << catalog.searchPaths().join(':') << "\n";
    return 0;
}

} // namespace glosa::cli
