// `glosa-cli translate-doc`: translate a whole document and keep its structure.
//
//   glosa-cli translate-doc [--model ID_OR_DIR | --from LANG --to LANG] IN -o OUT [--window N]
//   [--chunk-bytes N] [--quiet]
//       [decoding options of `glosa-cli translate`]
//
// IN is .txt, .srt, .md, .html, .odt, .docx or .pdf (see app/core/documents/formats.h for what
// each keeps); OUT has the same format, or .txt for the translated paragraphs only (.html or
// .txt for a PDF). .txt and .srt are streamed: read, translated and written --chunk-bytes at a
// time (4 MiB by default, cut at blank lines), so memory stays bounded on big files; OUT
// replaces any existing file only once complete. Progress (segments done, MB done of the total
// or segments of the total, and the time left) goes to stderr about once a second unless
// --quiet, then a summary line with segments/s. Ctrl+C stops at the next decoding step and still
// writes OUT with the finished part translated and the rest as in IN (exit code 130). A document
// that cannot be read (not UTF-8, binary, empty, malformed subtitles, corrupt or encrypted
// archive or PDF, unsupported type) or a model that cannot load: one line on stderr and exit
// code 1; bad arguments: exit code 2. The document (its first chunk when streamed) is checked
// before the model is loaded; a later chunk's error message counts lines from that chunk.
// Chunks, progress and cancellation: app/core/documents/chunkedtranslation.h, as in the GUI.
#include "app/cli/help.h"

#include "app/cli/bytenames.h"
#include "app/cli/interrupt.h"
#include "app/cli/modeloptions.h"
#include "app/core/documents/chunkedtranslation.h"
#include "app/core/documents/documenttranslator.h"
#include "app/core/documents/formats.h"
#include "app/core/documents/textencoding.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/platform/savefile.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTextStream>

#include <limits>
#include <optional>

namespace glosa::cli {

namespace {

QString duration(qint64 milliseconds)
{
    const qint64 seconds = (milliseconds + 500) / 1000;
    return seconds < 60 ? QStringLiteral("%1 s").arg(seconds)
                        : QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
}

QString megabytes(qint64 bytes)
{
    return QString::number(bytes / 1048576.0, 'f', 1);
}

// One progress line: sentences done and, streamed, MB of the file (the sentences of the chunks
// not read yet are not known), else sentences in all; the time left until the end.
QString progressLine(const documents::ChunkProgress &progress, bool streamed)
{
    QString line = QStringLiteral("%1 sentences").arg(progress.sentencesDone);
    if (streamed)
        line += QStringLiteral(", %1 of %2 MB")
                    .arg(megabytes(progress.bytesDone), megabytes(progress.bytesTotal));
    else
        line += QStringLiteral(" of %1").arg(progress.sentencesTotal);
    if (progress.millisecondsLeft >= 0 && !progress.last)
        line += QStringLiteral(", about %1 left").arg(duration(progress.millisecondsLeft));
    return line;
}

// Said when IN was not UTF-8 (its notice said what it was read as) or OUT is not.
QString encodingNotice(const QString &read, const QString &output, const QString &asked,
                       const QString &written)
{
    const QString name = documents::encodingDisplayName(written);
    if (written != asked)
        return QStringLiteral("%1 is written in %2: the translation has characters that %3 does "
                              "not have")
            .arg(output, name, documents::encodingDisplayName(asked));
    if (written == read)
        return QStringLiteral("%1 is written in %2, as the input was read").arg(output, name);
    return QStringLiteral("%1 is written in %2 (--output-encoding input writes %3)")
        .arg(output, name, documents::encodingDisplayName(read));
}

// The value of a positive integer option up to `most` (or `fallback` when not given); nullopt
// after saying why on `err`.
std::optional<qint64> positiveOption(const QCommandLineParser &parser, const QString &option,
                                     qint64 fallback, QTextStream &err,
                                     qint64 most = std::numeric_limits<qint64>::max())
{
    if (!parser.isSet(option))
        return fallback;
    bool ok = false;
    const qint64 value = parser.value(option).toLongLong(&ok);
    if (ok && value >= 1 && value <= most)
        return value;
    err << "glosa-cli translate-doc: --" << option << " '" << parser.value(option)
        << "' is not a positive integer\n";
    return std::nullopt;
}

// Where a cancelled translation of `input` goes when `output` exists: "x.partial.docx" beside
// "x.docx", or "x.partial-2.docx" and so on, never an existing file.
QString partialOutputName(const QString &output, const QString &input)
{
    const QFileInfo info(output);
    const QString suffix = info.suffix().isEmpty() ? QString() : QLatin1Char('.') + info.suffix();
    for (int n = 1;; ++n) {
        const QString candidate =
            info.dir().filePath(info.completeBaseName() + QStringLiteral(".partial") +
                                (n > 1 ? QStringLiteral("-%1").arg(n) : QString()) + suffix);
        if (!QFileInfo::exists(candidate) && !QFileInfo(candidate).isSymLink() &&
            !isSameFile(candidate, input))
            return candidate;
    }
}

} // namespace

int runTranslateDocCommand(const QStringList &args, const CommandIo &io);

Command translateDocCommand()
{
    Command help;
    help.name = QStringLiteral("translate-doc");
    help.synopsis = QStringLiteral("[--model ID_OR_DIR | --from LANG --to LANG] IN [-o OUT] "
                                   "[--window N] [--chunk-bytes N] [--output-encoding ENC] [--quiet] "
                                   "[decoding options]");
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
                       "(%1 for a PDF); without -o it is IN.LANG.EXT beside IN (report.docx "
                       "into Spanish: report.es.docx; a PDF: .odt). %2 are streamed "
                       "--chunk-bytes at a time, so memory stays bounded on big files; OUT "
                       "replaces an existing file only once complete, and never when the disk is "
                       "full. Progress goes to stderr about once a second unless --quiet. Ctrl+C "
                       "stops and writes the finished part translated, the rest as in IN (exit "
                       "code 130): into OUT if it does not exist yet, else beside it as "
                       "OUT.partial (x.partial.docx).\n\n")
            .arg(documents::suffixList(documents::writableFormats(QStringLiteral("pdf")),
                                       QStringLiteral(", "), QStringLiteral(" or ")),
                 streamedList) +
        decodingHelpParagraph();
    help.options = modelCommandLineOptions();
    QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")},
                              QStringLiteral("Output document (default: IN.LANG.EXT beside IN)."),
                              QStringLiteral("OUT"));
    QCommandLineOption window(QStringLiteral("window"),
                              QStringLiteral("Segments read ahead and sorted by length "
                                             "(1: document order)."),
                              QStringLiteral("N"), QStringLiteral("512"));
    QCommandLineOption chunk(QStringLiteral("chunk-bytes"),
                             QStringLiteral("%1 are read, translated and written this many "
                                            "bytes at a time (cut at blank lines).")
                                 .arg(streamedList),
                             QStringLiteral("N"), QString::number(qint64(4) << 20));
    QCommandLineOption outputEncoding(
        QStringLiteral("output-encoding"),
        QStringLiteral("UTF-8, or input: the encoding IN was read in (GB18030, Windows-1252, "
                       "UTF-16...), where every character of the translation has one."),
        QStringLiteral("ENC"), QStringLiteral("UTF-8"));
    help.options += {output, window, chunk, outputEncoding};
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
    help.run = runTranslateDocCommand;
    return help;
}

int runTranslateDocCommand(const QStringList &args, const CommandIo &io)
{
    QTextStream &out = io.out, &err = io.err;
    Q_UNUSED(out);
    const QString name = QStringLiteral("glosa-cli translate-doc: ");
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(translateDocCommand().options);
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
    const std::optional<qint64> window =
        positiveOption(parser, QStringLiteral("window"), 512, err, std::numeric_limits<int>::max());
    const std::optional<qint64> chunkBytes =
        positiveOption(parser, QStringLiteral("chunk-bytes"), qint64(4) << 20, err);
    if (!window || !chunkBytes)
        return 2;
    // Output is UTF-8 unless asked otherwise (issue #33); "input" keeps IN's own encoding.
    const QString outputEncoding = parser.value("output-encoding");
    const bool keepEncoding = outputEncoding.compare(QLatin1String("input"), Qt::CaseInsensitive) == 0;
    if (!keepEncoding && outputEncoding.compare(QLatin1String("UTF-8"), Qt::CaseInsensitive) != 0 &&
        outputEncoding.compare(QLatin1String("utf8"), Qt::CaseInsensitive) != 0) {
        err << name << "--output-encoding '" << outputEncoding.left(100)
            << "': write UTF-8 (the default) or input (the encoding IN was read in)\n";
        return 2;
    }
    const QString input = positional.first();
    // Without -o: IN.<target language>.<its format> beside IN, named once the model (and so the
    // language) is known; it never names IN itself.
    const bool defaultOutput = !parser.isSet("output");
    QString output = parser.value("output");
    try {
        decodingOptionsFromCommandLine(parser, engine::DecodingOptions());
    } catch (const std::invalid_argument &error) {
        err << name << error.what() << "\n";
        return 2;
    }
    const QString inFormat = documents::formatForPath(input);
    const QStringList writable = documents::writableFormats(inFormat);
    // IN's own format, or for one that cannot be written (PDF) the first it can be written as.
    const QString outFormat = !defaultOutput                ? documents::formatForPath(output)
                              : writable.contains(inFormat) ? inFormat
                                                            : writable.value(0);
    if (!inFormat.isEmpty() && !writable.contains(outFormat)) {
        err << name << "cannot write a ." << QFileInfo(input).suffix() << " document as '" << output
            << "' (write ." << writable.join(QStringLiteral(", .")) << ")\n";
        return 2;
    }

    // A name that is not UTF-8 is opened through a link (bytenames.h): no name can be made
    // beside it.
    if (defaultOutput && ByteNames::isLink(input)) {
        err << name << input << ": the name is not UTF-8; name the output with -o OUT\n";
        return 2;
    }
    if (isSameFile(input, output)) {
        err << name << output << " is the input document itself; write the translation to "
            << "another file\n";
        return 2;
    }

    // The document first (its first chunk when streamed): a corrupt file should not wait for a
    // model to load.
    std::optional<documents::ChunkedTranslation> document;
    try {
        document.emplace(input, *chunkBytes, [&](const QString &notice) {
            err << name << "notice: " << notice << "\n";
        });
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
    if (defaultOutput) {
        const QFileInfo in(input);
        const QString suffix = outFormat == inFormat ? in.suffix() : outFormat;
        output = in.dir().filePath(in.completeBaseName() + QLatin1Char('.') +
                                   QString::fromStdString(model->targetLanguage()) +
                                   QLatin1Char('.') + suffix);
    }

    engine::Translator translator(model);
    documents::DocumentTranslator documentTranslator(translator);
    documentTranslator.setWindowSize(int(*window));
    const bool quiet = parser.isSet("quiet");
    const bool streamed = document->isStreamed();
    QElapsedTimer timer, lastReport;
    timer.start();
    QObject::connect(
        &*document, &documents::ChunkedTranslation::progress,
        [&](const documents::ChunkProgress &progress) {
            // About once a second, and the last one.
            if (quiet || (lastReport.isValid() && lastReport.elapsed() < 1000 && !progress.last))
                return;
            lastReport.start();
            err << name << progressLine(progress, streamed) << "\n";
            err.flush();
        });

    SaveFile file(output); // written as the chunks are done; replaces OUT only when complete
    if (streamed && !file.open(QIODevice::WriteOnly)) {
        err << name << "cannot write " << output << ": " << file.errorString() << "\n";
        return 1;
    }
    documents::ChunkWriter writer(file, outFormat != inFormat); // streamed only
    bool complete = true;
    QString written = output; // where the translation went: a cancelled one may go elsewhere
    try {
        const CancelOnInterrupt cancelOnInterrupt;
        complete = document->translate(documentTranslator, decoding, writer, interrupted());
        // A cancelled translation never replaces an existing OUT: it goes beside it.
        if (!complete && QFileInfo::exists(output))
            written = partialOutputName(output, input);
        if (streamed) {
            if (!complete) // the rest as it is in the source: OUT stays a whole document
                document->writeUnfinished(writer);
            if (!file.commit(written))
                throw documents::DocumentError(
                    QStringLiteral("cannot write %1: %2").arg(written, file.errorString()));
        } else {
            const QString read = document->encoding();
            const QString asked = keepEncoding ? read : QStringLiteral("UTF-8");
            const QString encoding = documents::writeDocument(document->document(), written, asked);
            if (read != QLatin1String("UTF-8"))
                err << name << encodingNotice(read, written, asked, encoding) << "\n";
        }
    } catch (const documents::DocumentError &failure) {
        err << name << failure.message() << "\n";
        return 1;
    } catch (const std::exception &failure) {
        err << name << input << ": " << failure.what() << "\n";
        return 1;
    }
    const std::size_t translated = document->translatedCount();

    const double seconds = timer.nsecsElapsed() / 1e9;
    if (!complete) {
        err << name << "cancelled: " << translated << " segments translated, the rest left in the "
            << "source language in " << written
            << (written != output ? QStringLiteral(" (%1 is left as it was)").arg(output)
                                  : QString())
            << "\n";
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
