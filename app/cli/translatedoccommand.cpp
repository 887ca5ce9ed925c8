#include "app/cli/translatedoccommand.h"

#include "app/cli/translatecommand.h"
#include "app/core/documents/documenttranslator.h"
#include "app/core/documents/formats.h"
#include "app/core/modelcatalog.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTextStream>

#include <atomic>
#include <csignal>

namespace glosa::cli {

namespace {

std::atomic<documents::DocumentTranslator *> runningTranslator = nullptr;

extern "C" void cancelOnSignal(int)
{
    // Only an atomic flag is touched here (async-signal-safe); the batch in flight stops at its
    // next decoding step and the finished part is written.
    if (documents::DocumentTranslator *translator = runningTranslator.load())
        translator->cancel();
}

QString duration(qint64 milliseconds)
{
    const qint64 seconds = (milliseconds + 500) / 1000;
    return seconds < 60 ? QStringLiteral("%1 s").arg(seconds)
                        : QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
}

} // namespace

int runTranslateDocCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    Q_UNUSED(out);
    const QString name = QStringLiteral("glosa-cli translate-doc: ");
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    QList<QCommandLineOption> options = {{"model", "Model id or package folder.", "ID_OR_DIR"},
                                         {{"o", "output"}, "Output document.", "OUT"}};
    options += decodingCommandLineOptions();
    options += QList<QCommandLineOption>{
        {"window", "Segments read ahead and sorted by length (1: document order).", "N"},
        {"quiet", "No progress on stderr."},
    };
    parser.addOptions(options);
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli translate-doc")} + args)) {
        err << name << parser.errorText() << "\n";
        return 2;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        err << name
            << (positional.isEmpty()
                    ? QStringLiteral("the input document IN is required")
                    : QStringLiteral("one input document expected, got %1").arg(positional.size()))
            << "\n";
        return 2;
    }
    if (!parser.isSet("model") || !parser.isSet("output")) {
        err << name << "--model ID_OR_DIR and -o OUT are required\n";
        return 2;
    }
    int window = 512;
    if (parser.isSet("window")) {
        bool ok = false;
        window = parser.value("window").toInt(&ok);
        if (!ok || window < 1) {
            err << name << "--window '" << parser.value("window")
                << "' is not a positive integer\n";
            return 2;
        }
    }
    const QString input = positional.first();
    const QString output = parser.value("output");
    try {
        decodingOptionsFromCommandLine(parser, engine::DecodingOptions());
    } catch (const std::invalid_argument &error) {
        err << name << error.what() << "\n";
        return 2;
    }
    const QString inFormat = documents::formatForPath(input);
    const QString outFormat = documents::formatForPath(output);
    const bool writable =
        inFormat == QLatin1String("pdf")
            ? outFormat == QLatin1String("txt") || outFormat == QLatin1String("html")
            : outFormat == inFormat || outFormat == QLatin1String("txt");
    if (!inFormat.isEmpty() && !writable) {
        err << name << "cannot write a ." << QFileInfo(input).suffix() << " document as '" << output
            << "' (write "
            << (inFormat == QLatin1String("pdf") ? QStringLiteral(".html") : "." + inFormat)
            << " or .txt)\n";
        return 2;
    }

    // The document first: a corrupt file should not wait for a model to load.
    documents::Document document;
    try {
        document = documents::readDocument(input);
    } catch (const documents::DocumentError &error) {
        err << name << error.message() << "\n";
        return 1;
    }

    QString error;
    ModelInfo info;
    const std::shared_ptr<engine::TranslationModel> model =
        loadTranslationModel(parser.value("model"), &error, &info);
    if (!model) {
        err << name << error.simplified() << "\n";
        return 1;
    }
    engine::DecodingOptions decoding;
    try {
        decoding = decodingOptionsFromCommandLine(parser, model->defaultDecodingOptions());
        decoding.validate(model->decoder().vocabularySize());
    } catch (const std::exception &invalid) {
        err << name << invalid.what() << "\n";
        return 2;
    }

    engine::Translator translator(model);
    documents::DocumentTranslator documentTranslator(translator);
    documentTranslator.setWindowSize(window);
    const bool quiet = parser.isSet("quiet");
    QElapsedTimer timer, lastReport;
    timer.start();
    QObject::connect(&documentTranslator, &documents::DocumentTranslator::progress,
                     [&](int done, int total, qint64 left) {
                         if (quiet ||
                             (lastReport.isValid() && lastReport.elapsed() < 1000 && done < total))
                             return;
                         lastReport.start();
                         err << name << done << "/" << total << " segments";
                         if (left >= 0 && done < total)
                             err << ", about " << duration(left) << " left";
                         err << "\n";
                         err.flush();
                     });
    runningTranslator = &documentTranslator;
    auto previous = std::signal(SIGINT, cancelOnSignal);
    bool complete = false;
    try {
        complete = documentTranslator.translate(document, decoding);
    } catch (const std::exception &failure) {
        std::signal(SIGINT, previous);
        runningTranslator = nullptr;
        err << name << input << ": " << failure.what() << "\n";
        return 1;
    }
    std::signal(SIGINT, previous);
    runningTranslator = nullptr;

    try {
        documents::writeDocument(document, output);
    } catch (const documents::DocumentError &failure) {
        err << name << failure.message() << "\n";
        return 1;
    }
    const double seconds = timer.nsecsElapsed() / 1e9;
    const std::size_t done = document.translatedCount();
    if (!complete) {
        err << name << "cancelled: " << done << " of " << document.segments.size()
            << " segments translated, the rest left in the source language in " << output << "\n";
        return 130;
    }
    if (!quiet)
        err << name << "translated " << done << " segments in " << QString::number(seconds, 'f', 1)
            << " s (" << QString::number(seconds > 0 ? done / seconds : 0.0, 'f', 1)
            << " segments/s) into " << output << "\n";
    return 0;
}

} // namespace glosa::cli
