// `glosa-cli evaluate`: BLEU and chrF2 of one or more translation models on a test set, BLEU by
// source length, and the sentences where two models differ most (engine/evaluation).
//
//   glosa-cli evaluate [--model ID_OR_DIR]... [--from LANG --to LANG] [--compute-type TYPE]
//       [--test-set FILE.tsv | --source FILE --reference FILE] [decoding options]
//       [--bucket-width N] [--differences N] [--json] [--save-history] [--force-language]
//
// Without a test set, the bundled sample of the models' language pair (app/core/evaluation). All
// models must translate the same pair. Exit code 2 for bad arguments, 1 for a model or test set
// that cannot be read, or for an evaluation --save-history could not record (the scores are
// printed all the same), 3 for a test set whose sentences look like another language than the
// models' (the language guard) unless --force-language.
// --save-history records the evaluation in the history at `historyPath` (evaluationHistoryEntry,
// the entry the Evaluate dialog makes).
#include "app/cli/help.h"

#include "app/cli/historycommand.h"
#include "app/cli/modeloptions.h"
#include "app/core/evaluation/testsets.h"
#include "app/core/history/entrykinds.h"
#include "app/core/inference/languageguess.h"
#include "app/core/models/modelcatalog.h"
#include "engine/decoding/decodingfields.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>
#include <variant>

namespace glosa::cli {

namespace {

struct LoadedModel
{
    ModelInfo info;
    std::shared_ptr<engine::TranslationModel> model;
    engine::DecodingOptions options;
    engine::ModelEvaluation evaluation;
};

QString fixed(double value, int decimals = 2) { return QString::number(value, 'f', decimals); }

// "one line" for a table: tabs and line breaks would break its columns.
QString oneLine(const std::string &text)
{
    return QString::fromStdString(text).simplified();
}

} // namespace

int runEvaluateCommand(const QStringList &args, const CommandIo &io);

Command evaluateCommand()
{
    Command help;
    help.name = QStringLiteral("evaluate");
    help.synopsis = QStringLiteral("[--model ID_OR_DIR]... [--test-set FILE.tsv | --source FILE "
                                   "--reference FILE] [decoding options] [--bucket-width N] "
                                   "[--differences N] [--json] [--save-history]");
    help.summary = QStringLiteral("Score translation models on a test set (BLEU, chrF2, BLEU by "
                                  "sentence length).");
    help.description =
        QStringLiteral(
            "Translates every source sentence of a test set with each model given (--model "
            "repeated; without it the default model for --from/--to) and prints corpus BLEU and "
            "chrF2 as sacrebleu computes them by default (13a tokenizer; several references per "
            "sentence where the set repeats a source), the time spent translating, BLEU by "
            "source-sentence length in buckets of --bucket-width words (as in Bahdanau et al. "
            "2015, Fig. 2: a model without attention falls behind on long sentences), and with "
            "two or more models the sentences where the first two differ most (sentence-level "
            "chrF2).\n\n"
            "The test set is a TSV of source<TAB>reference lines (a comment '# columns: en es' "
            "names the columns, so that one file serves both directions), or two line-aligned "
            "files; without one, the bundled sample of the models' language pair (520 Tatoeba "
            "test pairs, CC-BY 2.0 FR).\n\n") +
        decodingHelpParagraph();
    help.options = modelCommandLineOptions() + decodingCommandLineOptions();
    help.options += QList<QCommandLineOption>{
        {"test-set", "A TSV of source<TAB>reference lines.", "FILE"},
        {"source", "Source sentences, one a line (with --reference).", "FILE"},
        {"reference", "Reference translations, line-aligned with --source.", "FILE"},
        {"bucket-width", "Words per source-length bucket.", "N", "5"},
        {"differences", "With two models: how many sentences to list where each does better.",
         "N", "5"},
        {"json", "One JSON object with every score, bucket and hypothesis."},
        forceLanguageOption(),
        {"save-history",
         "Also record the evaluation in the history (--history PATH): the scores, the buckets "
         "and the differences, as the Evaluate dialog records them."},
    };
    help.examples = {
        QStringLiteral("glosa-cli evaluate --model transformer-en-es --model rnn-attention-en-es"),
        QStringLiteral("glosa-cli evaluate --from es --to en --strategy greedy"),
        QStringLiteral("glosa-cli evaluate --model transformer-en-es --source news.en "
                       "--reference news.es --bucket-width 10 --json > scores.json"),
    };
    help.run = runEvaluateCommand;
    return help;
}

namespace {

// The run's numbers, for whichever way they are printed.
struct EvaluationReport
{
    const engine::TestSet &set;
    const std::vector<LoadedModel> &models;
    std::vector<engine::LengthBucket> buckets;
    std::vector<engine::SentenceDifference> differences; // models[0] against models[1]
    std::size_t referenceCount = 0;
};

// The two numbers of the report's layout, checked with the rest of the options.
struct ReportLayout
{
    int bucketWidth = 0;
    int differenceCount = 0;
};

// The options' own checks, before any model is loaded: the layout, or the exit code of a
// reported mistake.
std::variant<ReportLayout, int> checkOptions(const QCommandLineParser &parser, QTextStream &err)
{
    bool ok = false;
    const int bucketWidth = parser.value("bucket-width").toInt(&ok);
    if (!ok || bucketWidth < 1 || bucketWidth > 1000) {
        err << "glosa-cli evaluate: --bucket-width must be a number of words from 1 to 1000\n";
        return 2;
    }
    const int differenceCount = parser.value("differences").toInt(&ok);
    if (!ok || differenceCount < 0 || differenceCount > 1000) {
        err << "glosa-cli evaluate: --differences must be from 0 to 1000\n";
        return 2;
    }
    if (parser.isSet("test-set") && (parser.isSet("source") || parser.isSet("reference"))) {
        err << "glosa-cli evaluate: give --test-set or --source with --reference, not both\n";
        return 2;
    }
    if (parser.isSet("source") != parser.isSet("reference")) {
        err << "glosa-cli evaluate: --source and --reference go together\n";
        return 2;
    }
    try {
        decodingOptionsFromCommandLine(parser, engine::DecodingOptions());
    } catch (const std::invalid_argument &error) {
        err << "glosa-cli evaluate: " << error.what() << "\n";
        return 2;
    }
    QString error;
    if (!computeTypeFromCommandLine(parser, &error)) {
        err << "glosa-cli evaluate: " << error << "\n";
        return 2;
    }
    return ReportLayout{bucketWidth, differenceCount};
}

// Every --model (or the one --from/--to choose), of one language pair, with its decoding options:
// the models, or the exit code of a reported mistake.
std::variant<std::vector<LoadedModel>, int> loadModels(const QCommandLineParser &parser,
                                                       QTextStream &err)
{
    QString error;
    const engine::ComputeType computeType = *computeTypeFromCommandLine(parser, &error);
    QStringList ids = parser.values("model");
    if (ids.isEmpty()) {
        const std::optional<QString> id = modelFromCommandLine(parser, &error);
        if (!id) {
            err << "glosa-cli evaluate: " << error << "\n";
            return 1;
        }
        ids << *id;
    } else if (parser.isSet("from") || parser.isSet("to")) {
        err << "glosa-cli evaluate: --from and --to choose a model: leave out --model or them\n";
        return 2;
    }

    std::vector<LoadedModel> models;
    for (const QString &id : ids) {
        LoadedModel loaded;
        loaded.model = loadTranslationModel(id, &error, &loaded.info, computeType);
        if (!loaded.model) {
            err << "glosa-cli evaluate: " << error.simplified() << "\n";
            return 1;
        }
        if (!models.empty() && (loaded.info.sourceLanguage != models[0].info.sourceLanguage ||
                                loaded.info.targetLanguage != models[0].info.targetLanguage)) {
            err << "glosa-cli evaluate: " << loaded.info.id << " translates "
                << loaded.info.sourceLanguage << " → " << loaded.info.targetLanguage << " but "
                << models[0].info.id << " " << models[0].info.sourceLanguage << " → "
                << models[0].info.targetLanguage << ": compare models of one language pair\n";
            return 2;
        }
        try {
            loaded.options =
                decodingOptionsFromCommandLine(parser, loaded.model->defaultDecodingOptions());
            loaded.options.validate(loaded.model->decoder().vocabularySize());
        } catch (const std::exception &invalid) {
            err << "glosa-cli evaluate: " << loaded.info.id << ": " << invalid.what() << "\n";
            return 2;
        }
        models.push_back(std::move(loaded));
    }

    return models;
}

void printJson(const EvaluationReport &report, QTextStream &out)
{
    const engine::TestSet *set = &report.set;
    const std::vector<LoadedModel> &models = report.models;
    const std::vector<engine::LengthBucket> &buckets = report.buckets;
    const std::vector<engine::SentenceDifference> &diffs = report.differences;
    const std::size_t referenceCount = report.referenceCount;
        QJsonObject object;
        object["test_set"] = QJsonObject{{"name", QString::fromStdString(set->name)},
                                         {"sentences", qint64(set->size())},
                                         {"references", qint64(referenceCount)}};
        QJsonArray modelArray;
        for (const LoadedModel &m : models) {
            QJsonArray hypotheses;
            for (const std::string &h : m.evaluation.hypotheses)
                hypotheses.append(QString::fromStdString(h));
            modelArray.append(QJsonObject{
                {"model", m.info.id},
                {"bleu", m.evaluation.bleu.score},
                {"chrf", m.evaluation.chrf},
                {"brevity_penalty", m.evaluation.bleu.brevityPenalty},
                {"hypothesis_length", qint64(m.evaluation.bleu.hypothesisLength)},
                {"reference_length", qint64(m.evaluation.bleu.referenceLength)},
                {"seconds", m.evaluation.seconds},
                {"decoding", QJsonDocument::fromJson(QByteArray::fromStdString(
                                 engine::decodingOptionsToJson(m.options).dump()))
                                 .object()},
                {"hypotheses", hypotheses}});
        }
        object["models"] = modelArray;
        QJsonArray bucketArray;
        for (const engine::LengthBucket &b : buckets) {
            QJsonArray bleu;
            for (const double v : b.bleu)
                bleu.append(v);
            bucketArray.append(QJsonObject{{"first_words", b.firstWords},
                                           {"last_words", b.lastWords < 0 ? QJsonValue()
                                                                          : QJsonValue(b.lastWords)},
                                           {"sentences", qint64(b.sentences)},
                                           {"bleu", bleu}});
        }
        object["bleu_by_length"] = bucketArray;
        QJsonArray diffArray;
        for (const engine::SentenceDifference &d : diffs)
            diffArray.append(QJsonObject{{"sentence", qint64(d.sentence)},
                                         {"chrf_a", d.chrfA},
                                         {"chrf_b", d.chrfB}});
        if (!diffs.empty())
            object["differences"] = diffArray;
    out << QJsonDocument(object).toJson(QJsonDocument::Compact) << "\n";
}

void printTable(const EvaluationReport &report, int differenceCount, QTextStream &out)
{
    const engine::TestSet *set = &report.set;
    const std::vector<LoadedModel> &models = report.models;
    const std::vector<engine::SentenceDifference> &diffs = report.differences;
    const QString source = models[0].info.sourceLanguage;
    const QString target = models[0].info.targetLanguage;
    out << "test set: " << QString::fromStdString(set->name) << " (" << set->size()
        << " sentences, " << report.referenceCount << " references), " << source << " → " << target
        << "\n\n";
    int idWidth = 5;
    for (const LoadedModel &m : models)
        idWidth = std::max(idWidth, int(m.info.id.size()));
    out << QStringLiteral("model").leftJustified(idWidth) << "   BLEU  chrF2     BP    time\n";
    for (const LoadedModel &m : models)
        out << m.info.id.leftJustified(idWidth) << " " << fixed(m.evaluation.bleu.score).rightJustified(6)
            << " " << fixed(m.evaluation.chrf).rightJustified(6) << " "
            << fixed(m.evaluation.bleu.brevityPenalty, 3).rightJustified(6) << " "
            << (fixed(m.evaluation.seconds, 1) + QStringLiteral(" s")).rightJustified(7) << "\n";

    out << "\nBLEU by source length (words)\n" << QStringLiteral("words").leftJustified(8)
        << QStringLiteral("sentences").rightJustified(10);
    for (const LoadedModel &m : models)
        out << "  " << m.info.id;
    out << "\n";
    for (const engine::LengthBucket &b : report.buckets) {
        out << QString::fromStdString(engine::lengthBucketLabel(b)).leftJustified(8) << QString::number(b.sentences).rightJustified(10);
        for (std::size_t k = 0; k < b.bleu.size(); ++k)
            out << "  " << fixed(b.bleu[k]).rightJustified(int(models[k].info.id.size()));
        out << "\n";
    }

    if (!diffs.empty() && differenceCount > 0) {
        // `first` is the model that does better in the listed sentences (0 or 1).
        auto list = [&](int first, auto begin, auto end) {
            out << "\n"
                << QStringLiteral("Where %1 does better than %2:")
                       .arg(models[first].info.id, models[1 - first].info.id)
                << "\n";
            int shown = 0;
            for (auto it = begin; it != end && shown < differenceCount; ++it) {
                if ((first == 0 ? it->chrfA - it->chrfB : it->chrfB - it->chrfA) <= 0.0)
                    break;
                ++shown;
                const std::size_t i = it->sentence;
                out << "  #" << (i + 1) << "  chrF2 " << fixed(it->chrfA, 1) << " vs "
                    << fixed(it->chrfB, 1) << "\n"
                    << "    source:    " << oneLine(set->sources[i]) << "\n"
                    << "    reference: " << oneLine(set->references[i].front()) << "\n"
                    << "    " << models[0].info.id << ": "
                    << oneLine(models[0].evaluation.hypotheses[i]) << "\n"
                    << "    " << models[1].info.id << ": "
                    << oneLine(models[1].evaluation.hypotheses[i]) << "\n";
            }
            if (shown == 0)
                out << "  (none)\n";
        };
        list(0, diffs.begin(), diffs.end());
        list(1, diffs.rbegin(), diffs.rend());
    }
}

} // namespace

int runEvaluateCommand(const QStringList &args, const CommandIo &io)
{
    QTextStream &out = io.out, &err = io.err;
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parseCommandLine(parser, evaluateCommand(), args, err, false))
        return 2;
    const std::variant<ReportLayout, int> checked = checkOptions(parser, err);
    if (const int *exitCode = std::get_if<int>(&checked))
        return *exitCode;
    const auto [bucketWidth, differenceCount] = std::get<ReportLayout>(checked);
    std::variant<std::vector<LoadedModel>, int> loaded = loadModels(parser, err);
    if (const int *exitCode = std::get_if<int>(&loaded))
        return *exitCode;
    std::vector<LoadedModel> &models = std::get<std::vector<LoadedModel>>(loaded);

    QString error;
    const QString source = models[0].info.sourceLanguage;
    const QString target = models[0].info.targetLanguage;
    const std::optional<engine::TestSet> set =
        parser.isSet("test-set")
            ? readTsvTestSet(parser.value("test-set"), source, &error)
        : parser.isSet("source")
            ? readAlignedTestSet(parser.value("source"), parser.value("reference"), &error)
            : bundledTestSet(source, target, &error);
    if (!set) {
        err << "glosa-cli evaluate: " << error << "\n";
        return 1;
    }
    // Scores of a set in another language than the models' would measure only the garbling.
    if (const QString why = LanguageGuard(parser, models[0].info).check(testSetLanguageSample(*set));
        !why.isEmpty()) {
        err << "glosa-cli evaluate: the test set " << why << "\n";
        return kExitWrongLanguage;
    }

    for (LoadedModel &m : models) {
        engine::Translator translator(m.model);
        try {
            m.evaluation = engine::evaluate(translator, *set, m.options);
        } catch (const std::exception &failure) {
            err << "glosa-cli evaluate: " << m.info.id << ": " << failure.what() << "\n";
            return 1;
        }
    }
    std::vector<const engine::ModelEvaluation *> evaluations;
    for (const LoadedModel &m : models)
        evaluations.push_back(&m.evaluation);
    EvaluationReport report{*set, models, engine::bleuByLength(*set, evaluations, bucketWidth),
                            {}, 0};
    for (const auto &references : set->references)
        report.referenceCount += references.size();
    if (models.size() >= 2)
        report.differences = engine::differences(models[0].evaluation, models[1].evaluation);
    // Recorded before printing, so that a failure to record comes first on stderr; the scores
    // are printed whatever happens (exit status 1 then says the history lacks them).
    int status = 0;
    if (parser.isSet("save-history")) {
        QList<ModelInfo> infos;
        QList<engine::DecodingOptions> options;
        std::vector<engine::ModelEvaluation> results;
        for (const LoadedModel &m : models) {
            infos << m.info;
            options << m.options;
            results.push_back(m.evaluation);
        }
        if (saveToHistory(evaluationHistoryEntry(*set, infos, results, options, bucketWidth,
                                                 differenceCount),
                          io.historyPath, err) == 0)
            status = 1;
    }
    if (parser.isSet("json"))
        printJson(report, out);
    else
        printTable(report, differenceCount, out);
    return status;
}

} // namespace glosa::cli
