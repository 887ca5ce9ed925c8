// `glosa-cli translate-doc`: translate a whole document and keep its structure.
//
//   glosa-cli translate-doc [--model ID_OR_DIR | --from LANG --to LANG] IN... [-o OUT |
//   --output-dir DIR] [--overwrite] [--force-language] [--window N] [--chunk-bytes N] [--quiet]
//       [decoding options of `glosa-cli translate`]
//
// Several INs are translated in turn with the model loaded once (a tool such as GNU parallel
// spreads a folder over processes: README.md). Without -o, OUT is IN.LANG.EXT beside IN or in
// DIR and never replaces a file (IN.LANG (2).EXT) unless --overwrite. A document in another
// language than the model's source (the language guard, app/core/inference/languageguess.h) is
// skipped with a message and exit code 3, unless --force-language.
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

#include <algorithm>
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
    help.synopsis = QStringLiteral("[--model ID_OR_DIR | --from LANG --to LANG] IN... "
                                   "[-o OUT | --output-dir DIR] [--overwrite] [--force-language] "
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
                       "into Spanish: report.es.docx; a PDF: .odt), or in --output-dir DIR, and "
                       "an existing file is never replaced: report.es (2).docx is written "
                       "instead, unless --overwrite (-o OUT replaces OUT: that is what it asks "
                       "for). Several documents are translated one after another with the model "
                       "loaded once; one that cannot be read is reported and the others go on "
                       "(exit code 1 at the end). A document that looks like another language "
                       "than the model's source (an English one given to Spanish → English) is "
                       "not translated: a message names the language and the --from/--to for it, "
                       "and the exit code is 3, unless --force-language. %2 are streamed "
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
    help.options += {output,
                     {"output-dir",
                      "Write each IN.LANG.EXT into DIR (made if missing) instead of beside IN.",
                      "DIR"},
                     {"overwrite", "Without -o: replace an existing IN.LANG.EXT instead of "
                                   "writing IN.LANG (2).EXT."},
                     forceLanguageOption(), window, chunk, outputEncoding};
    help.options += decodingCommandLineOptions();
    help.options +=
        QCommandLineOption(QStringLiteral("quiet"), QStringLiteral("No progress on stderr."));
    help.examples = {
        QStringLiteral("glosa-cli translate-doc report.docx -o informe.docx"),
        QStringLiteral("glosa-cli translate-doc --from es carta.odt -o letter.odt"),
        QStringLiteral("glosa-cli translate-doc --model transformer-en-es film.srt -o film.es.srt "
                       "--strategy greedy"),
        QStringLiteral("glosa-cli translate-doc paper.pdf -o paper.html"),
        QStringLiteral("glosa-cli translate-doc --from en --to es reports/*.docx --output-dir "
                       "informes"),
    };
    help.run = runTranslateDocCommand;
    return help;
}

namespace {

// What the command line asks of every document, checked before anything is read.
struct DocJob
{
    QTextStream &err;
    QStringList inputs;
    QString output;    // -o OUT: the one input's output, replaced when it exists
    QString outputDir; // --output-dir DIR: each IN.LANG.EXT goes there instead of beside IN
    qint64 window = 512;
    qint64 chunkBytes = qint64(4) << 20;
    bool keepEncoding = false; // --output-encoding input
    bool quiet = false;
    bool overwrite = false;
    QStringList written; // the outputs of this run, never written twice
};

const QString kName = QStringLiteral("glosa-cli translate-doc: ");

// IN's own format, or for one that cannot be written (PDF) the first it can be written as; with
// -o, OUT's.
QString outputFormat(const QString &input, const QString &output)
{
    const QString inFormat = documents::formatForPath(input);
    const QStringList writable = documents::writableFormats(inFormat);
    return !output.isEmpty()            ? documents::formatForPath(output)
           : writable.contains(inFormat) ? inFormat
                                         : writable.value(0);
}

// Whether a file exists at `path` (a dangling symlink counts: writing would follow it).
bool occupied(const QString &path)
{
    return QFileInfo::exists(path) || QFileInfo(path).isSymLink();
}

// Without -o: IN.<target language>.<format> beside IN or in --output-dir. An existing file is
// not replaced unless --overwrite: "report.es (2).docx", "(3)"... instead; nor is a file this run
// wrote (two inputs of one name into one --output-dir) or any input.
QString defaultOutputName(const DocJob &job, const QString &input, const QString &language)
{
    const QFileInfo in(input);
    const QString format = outputFormat(input, QString());
    const QString suffix = format == documents::formatForPath(input) ? in.suffix() : format;
    const QDir dir(job.outputDir.isEmpty() ? in.dir().path() : job.outputDir);
    const QString base = in.completeBaseName() + QLatin1Char('.') + language;
    for (int n = 1;; ++n) {
        const QString candidate = dir.filePath(
            base + (n > 1 ? QStringLiteral(" (%1)").arg(n) : QString()) + QLatin1Char('.') + suffix);
        const bool taken =
            job.written.contains(candidate) || (!job.overwrite && occupied(candidate)) ||
            std::any_of(job.inputs.begin(), job.inputs.end(),
                        [&](const QString &i) { return isSameFile(i, candidate); });
        if (!taken)
            return candidate;
    }
}

// Parses and checks the command line: nullopt (after a message on `err`) for bad arguments.
std::optional<DocJob> parseDocJob(const QCommandLineParser &parser, QTextStream &err)
{
    DocJob job{err, parser.positionalArguments()};
    job.output = parser.value("output");
    job.outputDir = parser.value("output-dir");
    job.quiet = parser.isSet("quiet");
    job.overwrite = parser.isSet("overwrite");
    if (job.inputs.isEmpty()) {
        err << kName << "the input document IN is required\n";
        return std::nullopt;
    }
    if (parser.isSet("output") && parser.isSet("output-dir")) {
        err << kName << "-o names one output, --output-dir a folder for them: give one\n";
        return std::nullopt;
    }
    if (parser.isSet("output") && job.inputs.size() > 1) {
        err << kName << "-o names one output, but " << job.inputs.size()
            << " documents were given; use --output-dir DIR for several\n";
        return std::nullopt;
    }
    const std::optional<qint64> window =
        positiveOption(parser, QStringLiteral("window"), 512, err, std::numeric_limits<int>::max());
    const std::optional<qint64> chunkBytes =
        positiveOption(parser, QStringLiteral("chunk-bytes"), qint64(4) << 20, err);
    if (!window || !chunkBytes)
        return std::nullopt;
    job.window = *window;
    job.chunkBytes = *chunkBytes;
    // Output is UTF-8 unless asked otherwise; "input" keeps IN's own encoding.
    const QString encoding = parser.value("output-encoding");
    job.keepEncoding = encoding.compare(QLatin1String("input"), Qt::CaseInsensitive) == 0;
    if (!job.keepEncoding && encoding.compare(QLatin1String("UTF-8"), Qt::CaseInsensitive) != 0 &&
        encoding.compare(QLatin1String("utf8"), Qt::CaseInsensitive) != 0) {
        err << kName << "--output-encoding '" << encoding.left(100)
            << "': write UTF-8 (the default) or input (the encoding IN was read in)\n";
        return std::nullopt;
    }
    try {
        decodingOptionsFromCommandLine(parser, engine::DecodingOptions());
    } catch (const std::invalid_argument &error) {
        err << kName << error.what() << "\n";
        return std::nullopt;
    }
    return job;
}

// The checks of each input against its output that need no reading: false after a message.
bool checkOutputs(const DocJob &job)
{
    for (const QString &input : job.inputs) {
        const QString inFormat = documents::formatForPath(input);
        const QStringList writable = documents::writableFormats(inFormat);
        if (!inFormat.isEmpty() && !writable.contains(outputFormat(input, job.output))) {
            job.err << kName << "cannot write a ." << QFileInfo(input).suffix()
                    << " document as '" << job.output << "' (write ."
                    << writable.join(QStringLiteral(", .")) << ")\n";
            return false;
        }
        // A name that is not UTF-8 is opened through a link (bytenames.h): no name can be made
        // from it, beside it or in --output-dir.
        if (job.output.isEmpty() && ByteNames::isLink(input)) {
            job.err << kName << input << ": the name is not UTF-8; name the output with -o OUT\n";
            return false;
        }
        if (isSameFile(input, job.output)) {
            job.err << kName << job.output << " is the input document itself; write the "
                    << "translation to another file\n";
            return false;
        }
    }
    if (!job.outputDir.isEmpty() && !QDir().mkpath(job.outputDir)) {
        job.err << kName << "cannot make the folder " << job.outputDir << "\n";
        return false;
    }
    return true;
}

// The model and its settings, loaded once for every document.
struct LoadedModel
{
    std::shared_ptr<engine::TranslationModel> model;
    ModelInfo info;
    engine::DecodingOptions decoding;
};

// Loads the model the command line names: nullopt after a message, with the exit code in *status.
std::optional<LoadedModel> loadDocModel(const QCommandLineParser &parser, QTextStream &err,
                                        int *status)
{
    QString error;
    const std::optional<QString> modelId = modelFromCommandLine(parser, &error);
    const std::optional<engine::ComputeType> computeType =
        modelId ? computeTypeFromCommandLine(parser, &error) : std::nullopt;
    if (!modelId || !computeType) {
        err << kName << error << "\n";
        *status = !modelId && !parser.isSet("model") ? 1 : 2;
        return std::nullopt;
    }
    LoadedModel loaded;
    loaded.model = loadTranslationModel(*modelId, &error, &loaded.info, *computeType);
    if (!loaded.model) {
        err << kName << error.simplified() << "\n";
        *status = 1;
        return std::nullopt;
    }
    try {
        loaded.decoding = decodingOptionsFromCommandLine(parser, loaded.model->defaultDecodingOptions());
        loaded.decoding.validate(loaded.model->decoder().vocabularySize());
    } catch (const std::exception &invalid) {
        err << kName << invalid.what() << "\n";
        *status = 2;
        return std::nullopt;
    }
    return loaded;
}

// Translates the opened `document` into `output` and says so: 0, 1 (written nowhere) or 130
// (cancelled: the finished part written, beside OUT when OUT exists).
int translateDocument(DocJob &job, documents::ChunkedTranslation &document,
                      const LoadedModel &loaded, const QString &output)
{
    QTextStream &err = job.err;
    const QString &input = document.path();
    engine::Translator translator(loaded.model);
    documents::DocumentTranslator documentTranslator(translator);
    documentTranslator.setWindowSize(int(job.window));
    const bool streamed = document.isStreamed();
    QElapsedTimer timer, lastReport;
    timer.start();
    QObject::connect(&document, &documents::ChunkedTranslation::progress,
                     [&](const documents::ChunkProgress &progress) {
                         // About once a second, and the last one.
                         if (job.quiet || (lastReport.isValid() && lastReport.elapsed() < 1000 &&
                                           !progress.last))
                             return;
                         lastReport.start();
                         err << kName << progressLine(progress, streamed) << "\n";
                         err.flush();
                     });
    SaveFile file(output); // written as the chunks are done; replaces OUT only when complete
    if (streamed && !file.open(QIODevice::WriteOnly)) {
        err << kName << "cannot write " << output << ": " << file.errorString() << "\n";
        return 1;
    }
    const bool plainText = outputFormat(input, output) != documents::formatForPath(input);
    documents::ChunkWriter writer(file, plainText); // streamed only
    QString written = output; // where the translation went: a cancelled one may go elsewhere
    bool complete = true;
    try {
        const CancelOnInterrupt cancelOnInterrupt;
        complete = document.translate(documentTranslator, loaded.decoding, writer, interrupted());
        // A cancelled translation never replaces an existing OUT: it goes beside it.
        if (!complete && QFileInfo::exists(output))
            written = partialOutputName(output, input);
        if (streamed) {
            if (!complete) // the rest as it is in the source: OUT stays a whole document
                document.writeUnfinished(writer);
            if (!file.commit(written))
                throw documents::DocumentError(
                    QStringLiteral("cannot write %1: %2").arg(written, file.errorString()));
        } else {
            const QString read = document.encoding();
            const QString asked = job.keepEncoding ? read : QStringLiteral("UTF-8");
            const QString encoding = documents::writeDocument(document.document(), written, asked);
            if (read != QLatin1String("UTF-8"))
                err << kName << encodingNotice(read, written, asked, encoding) << "\n";
        }
    } catch (const documents::DocumentError &failure) {
        err << kName << failure.message() << "\n";
        return 1;
    } catch (const std::exception &failure) {
        err << kName << input << ": " << failure.what() << "\n";
        return 1;
    }
    job.written << written;
    const std::size_t translated = document.translatedCount();
    const double seconds = timer.nsecsElapsed() / 1e9;
    if (!complete) {
        err << kName << "cancelled: " << translated << " segments translated, the rest left in "
            << "the source language in " << written
            << (written != output ? QStringLiteral(" (%1 is left as it was)").arg(output)
                                  : QString())
            << "\n";
        return 130;
    }
    if (!job.quiet)
        err << kName << "translated " << translated << " segments in "
            << QString::number(seconds, 'f', 1) << " s ("
            << QString::number(seconds > 0 ? translated / seconds : 0.0, 'f', 1)
            << " segments/s) into " << written << "\n";
    return 0;
}

} // namespace

int runTranslateDocCommand(const QStringList &args, const CommandIo &io)
{
    QTextStream &err = io.err;
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(translateDocCommand().options);
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli translate-doc")} + args)) {
        err << kName << parser.errorText() << "\n";
        return 2;
    }
    std::optional<DocJob> job = parseDocJob(parser, err);
    if (!job || !checkOutputs(*job))
        return 2;
    // Each document is read before anything is translated: a corrupt file is reported before the
    // model loads (once, for the first document that can be read) and does not stop the others.
    std::optional<LoadedModel> loaded;
    std::optional<LanguageGuard> guard;
    bool failed = false, wrongLanguage = false;
    for (const QString &input : job->inputs) {
        std::optional<documents::ChunkedTranslation> document;
        try {
            document.emplace(input, job->chunkBytes, [&](const QString &notice) {
                err << kName << "notice: " << notice << "\n";
            });
        } catch (const documents::DocumentError &error) {
            err << kName << error.message() << "\n";
            failed = true;
            continue;
        }
        if (!loaded) {
            int status = 0;
            loaded = loadDocModel(parser, err, &status);
            if (!loaded)
                return status;
            guard.emplace(parser, loaded->info);
        }
        if (const QString why = guard->check(document->leadingText(LanguageGuess::kSampleChars));
            !why.isEmpty()) {
            err << kName << input << " " << why << "; not translated\n";
            wrongLanguage = true;
            continue;
        }
        const QString output =
            !job->output.isEmpty()
                ? job->output
                : defaultOutputName(*job, input, QString::fromStdString(loaded->model->targetLanguage()));
        const int status = translateDocument(*job, *document, *loaded, output);
        if (status == 130)
            return status;
        failed = failed || status != 0;
    }
    return failed ? 1 : wrongLanguage ? kExitWrongLanguage : 0;
}

} // namespace glosa::cli
