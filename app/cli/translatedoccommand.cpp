#include "app/cli/translatedoccommand.h"

#include "app/cli/modeloptions.h"
#include "app/core/documents/documenttranslator.h"
#include "app/core/documents/formats.h"
#include "app/core/documents/textencoding.h"
#include "app/core/limits.h"
#include "app/core/modelcatalog.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QTextStream>

#include <atomic>
#include <csignal>

namespace glosa::cli {

namespace {

std::atomic<documents::DocumentTranslator *> runningTranslator = nullptr;
// Set by SIGINT and kept until the command ends: DocumentTranslator::translate() clears its own
// cancel flag when it starts, so a Ctrl+C between two streamed chunks would otherwise be
// forgotten (and the whole file translated).
std::atomic<bool> interrupted = false;
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void cancelOnSignal(int)
{
    // Only atomics are touched here (async-signal-safe); the batch in flight stops at its next
    // decoding step and the finished part is written.
    interrupted = true;
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

CommandHelp translateDocCommandHelp()
{
    CommandHelp help;
    help.name = QStringLiteral("translate-doc");
    help.synopsis = QStringLiteral("[--model ID_OR_DIR | --from LANG --to LANG] IN -o OUT "
                                   "[--window N] [--chunk-bytes N] [--quiet] [decoding options]");
    QStringList formats, streamed;
    for (const documents::DocumentFormat &row : documents::documentFormats()) {
        formats << row.name;
        if (row.streamable)
            streamed << row.name;
    }
    const QString streamedList =
        documents::suffixList(streamed, QStringLiteral(", "), QStringLiteral(" and "));
    help.summary = QStringLiteral("Translate a document (%1) and keep its structure.")
                       .arg(documents::suffixList(formats, QStringLiteral(" ")));
    help.description =
        QStringLiteral("OUT has the format of IN, or .txt for the translated paragraphs only "
                       "(%1 for a PDF). %2 are streamed "
                       "--chunk-bytes at a time, so memory stays bounded on big files; OUT "
                       "replaces an existing file only once complete. Progress goes to stderr "
                       "about once a second unless --quiet. Ctrl+C stops and still writes OUT "
                       "with the finished part translated (exit code 130).\n\n")
            .arg(documents::suffixList(documents::writableFormats(QStringLiteral("pdf")),
                                       QStringLiteral(", "), QStringLiteral(" or ")),
                 streamedList) +
        decodingHelpParagraph();
    help.options = modelCommandLineOptions();
    QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")},
                              QStringLiteral("Output document."), QStringLiteral("OUT"));
    QCommandLineOption window(QStringLiteral("window"),
                              QStringLiteral("Segments read ahead and sorted by length "
                                             "(1: document order)."),
                              QStringLiteral("N"), QStringLiteral("512"));
    QCommandLineOption chunk(QStringLiteral("chunk-bytes"),
                             QStringLiteral("%1 are read, translated and written this many "
                                            "bytes at a time (cut at blank lines).")
                                 .arg(streamedList),
                             QStringLiteral("N"), QString::number(qint64(4) << 20));
    help.options += {output, window, chunk};
    help.options += decodingCommandLineOptions();
    help.options +=
        QCommandLineOption(QStringLiteral("quiet"), QStringLiteral("No progress on stderr."));
    help.examples = {
        QStringLiteral("glosa-cli translate-doc report.docx -o informe.docx"),
        QStringLiteral("glosa-cli translate-doc --from es carta.odt -o letter.odt"),
        QStringLiteral("glosa-cli translate-doc --model transformer-en-es film.srt -o film.es.srt "
                       "--strategy greedy"),
        QStringLiteral("glosa-cli translate-doc paper.pdf -o paper.html"),
    };
    return help;
}

int runTranslateDocCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    Q_UNUSED(out);
    const QString name = QStringLiteral("glosa-cli translate-doc: ");
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(translateDocCommandHelp().options);
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
    if (!parser.isSet("output")) {
        err << name << "-o OUT is required\n";
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
    qint64 chunkBytes = qint64(4) << 20;
    if (parser.isSet("chunk-bytes")) {
        bool ok = false;
        chunkBytes = parser.value("chunk-bytes").toLongLong(&ok);
        if (!ok || chunkBytes < 1) {
            err << name << "--chunk-bytes '" << parser.value("chunk-bytes")
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
    const QStringList writable = documents::writableFormats(inFormat);
    if (!inFormat.isEmpty() && !writable.contains(outFormat)) {
        err << name << "cannot write a ." << QFileInfo(input).suffix() << " document as '" << output
            << "' (write ." << writable.join(QStringLiteral(", .")) << ")\n";
        return 2;
    }

    // The document first: a corrupt file should not wait for a model to load. Line-based
    // formats are streamed a chunk at a time (cut at blank lines), so memory stays bounded.
    // Only UTF-8 is cut into chunks; a file in another encoding is converted whole.
    const bool streamed = documents::isStreamable(inFormat) &&
                          documents::detectFileEncoding(input) == QLatin1String("UTF-8");
    QFile source(input);
    auto nextChunk = [&] {
        bool cut = false;
        const QByteArray chunk = documents::readChunk(source, chunkBytes, &cut);
        if (cut)
            err << name << "notice: " << input << ": a paragraph runs past the limit of "
                << (limits::kMaxChunkBytes >> 20) << " MiB without a blank line; cut at byte "
                << source.pos() << "\n";
        return chunk;
    };
    documents::Document document;
    try {
        if (streamed) {
            if (!source.open(QIODevice::ReadOnly))
                throw documents::DocumentError(
                    QStringLiteral("cannot open %1: %2").arg(input, source.errorString()));
            document =
                documents::parseDocument(nextChunk(), inFormat, input);
        } else {
            document = documents::readDocument(input);
        }
    } catch (const documents::DocumentError &error) {
        err << name << error.message() << "\n";
        return 1;
    }

    QString error;
    const std::optional<QString> modelId = modelFromCommandLine(parser, &error);
    if (!modelId) {
        err << name << error << "\n";
        return parser.isSet("model") ? 2 : 1;
    }
    const std::optional<engine::ComputeType> computeType =
        computeTypeFromCommandLine(parser, &error);
    if (!computeType) {
        err << name << error << "\n";
        return 2;
    }
    ModelInfo info;
    const std::shared_ptr<engine::TranslationModel> model =
        loadTranslationModel(*modelId, &error, &info, *computeType);
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
    // Progress over the whole file: sentences of the chunks done, and bytes for the time left.
    const qint64 totalBytes = streamed ? source.size() : 0;
    qint64 bytesBefore = 0, bytesInChunk = 0;
    std::size_t segmentsBefore = 0;
    qint64 sentencesBefore = 0, sentencesInChunk = 0;
    QObject::connect(
        &documentTranslator, &documents::DocumentTranslator::progress,
        [&](int done, int total, qint64 left) {
            sentencesInChunk = total;
            const bool last = done == total && (!streamed || source.atEnd());
            if (quiet || (lastReport.isValid() && lastReport.elapsed() < 1000 && !last))
                return;
            lastReport.start();
            err << name << sentencesBefore + done << " sentences";
            if (streamed) {
                const qint64 bytes = bytesBefore + bytesInChunk * done / std::max(total, 1);
                err << ", " << QString::number(bytes / 1048576.0, 'f', 1) << " of "
                    << QString::number(totalBytes / 1048576.0, 'f', 1) << " MB";
                if (bytes > 0 && !last)
                    err << ", about " << duration(timer.elapsed() * (totalBytes - bytes) / bytes)
                        << " left";
            } else {
                err << " of " << total;
                if (left >= 0 && !last)
                    err << ", about " << duration(left) << " left";
            }
            err << "\n";
            err.flush();
        });

    QSaveFile sink(output); // written as the chunks are done; replaces OUT only when complete
    if (streamed && !sink.open(QIODevice::WriteOnly)) {
        err << name << "cannot write " << output << ": " << sink.errorString() << "\n";
        return 1;
    }
    runningTranslator = &documentTranslator;
    interrupted = false;
    auto previous = std::signal(SIGINT, cancelOnSignal);
    bool complete = true;
    std::size_t segments = 0, translated = 0;
    try {
        for (;;) {
            bytesInChunk = streamed ? source.pos() - bytesBefore : 0;
            complete = documentTranslator.translate(document, decoding);
            if (streamed && interrupted)
                complete = false; // stop after this chunk, however far it got
            segments += document.segments.size();
            translated += document.translatedCount();
            if (!streamed) {
                const QString written = documents::writeDocument(document, output);
                // Say so whenever the text is not plain UTF-8 in and out.
                if (document.encoding != QLatin1String("UTF-8"))
                    err << name << input << " was read as "
                        << documents::encodingDisplayName(document.encoding) << "; " << output
                        << " is written in " << documents::encodingDisplayName(written)
                        << (written == document.encoding
                                ? QString()
                                : QStringLiteral(" (the translation has characters that %1 does "
                                                 "not have)")
                                      .arg(documents::encodingDisplayName(document.encoding)))
                        << "\n";
                break;
            }
            if (outFormat == inFormat)
                sink.write(document.render());
            else // paragraphs separated by a blank line across chunks too
                sink.write((segmentsBefore > 0 ? "\n" : "") + documents::plainText(document));
            segmentsBefore = segments;
            sentencesBefore += sentencesInChunk;
            bytesBefore = source.pos();
            if (!complete) {
                // The rest as it is in the source: the output stays a whole document.
                if (outFormat == inFormat)
                    while (!source.atEnd())
                        sink.write(source.read(1 << 20));
                break;
            }
            if (source.atEnd())
                break;
            const QByteArray chunk = nextChunk();
            if (chunk.trimmed().isEmpty()) {
                if (outFormat == inFormat)
                    sink.write(chunk);
                break;
            }
            document = documents::parseDocument(chunk, inFormat, input);
        }
        if (streamed && !sink.commit())
            throw documents::DocumentError(
                QStringLiteral("cannot write %1: %2").arg(output, sink.errorString()));
    } catch (const documents::DocumentError &failure) {
        std::signal(SIGINT, previous);
        runningTranslator = nullptr;
        err << name << failure.message() << "\n";
        return 1;
    } catch (const std::exception &failure) {
        std::signal(SIGINT, previous);
        runningTranslator = nullptr;
        err << name << input << ": " << failure.what() << "\n";
        return 1;
    }
    std::signal(SIGINT, previous);
    runningTranslator = nullptr;

    const double seconds = timer.nsecsElapsed() / 1e9;
    if (!complete) {
        err << name << "cancelled: " << translated << " segments translated, the rest left in the "
            << "source language in " << output << "\n";
        return 130;
    }
    if (!quiet)
        err << name << "translated " << translated << " segments in "
            << QString::number(seconds, 'f', 1) << " s ("
            << QString::number(seconds > 0 ? translated / seconds : 0.0, 'f', 1)
            << " segments/s) into " << output << "\n";
    return 0;
}

} // namespace glosa::cli
