// ChunkedTranslation on its own, the pipeline glosa-cli translate-doc and the Documents view
// share: chunks cut at blank lines cover the file, translated chunk by chunk the file comes out
// as it does translated whole, a cancel after a chunk keeps the rest byte for byte and a second
// call goes on from there, and progress counts the whole file. Real files and the toy word-table
// package (tests/data/toy-en-es: word by word, so a chunk translates as it does inside the whole).
#include "tests/support/testutil.h"

#include "app/core/documents/chunkedtranslation.h"
#include "app/core/documents/documenttranslator.h"
#include "app/core/documents/formats.h"
#include "app/core/limits.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QBuffer>
#include <QTemporaryDir>
#include <QtTest>

#include <numeric>

using namespace glosa::documents;

namespace {

std::shared_ptr<glosa::engine::TranslationModel> toyModel()
{
    static const auto model = [] {
        glosa::PluginRegistry plugins;
        plugins.scan({QStringLiteral(GLOSA_TEST_PLUGIN_DIR "/translators")});
        QString error;
        const auto loaded = glosa::ModelCatalog::load(
            glosa::ModelCatalog::readPackage(glosa::test::testDataDir() +
                                             QStringLiteral("/toy-en-es")),
            plugins, &error);
        if (!loaded)
            qWarning("%s", qPrintable(error));
        return std::dynamic_pointer_cast<glosa::engine::TranslationModel>(loaded);
    }();
    return model;
}

// Paragraphs of one to three sentences of the toy model's words, a blank line after each.
QByteArray paragraphs(int count)
{
    const QList<QByteArray> sentences = {"the cat is big.", "the dog is small.",
                                         "i see a green book today.", "we have water."};
    QByteArray text;
    for (int i = 0; i < count; ++i) {
        for (int j = 0; j <= i % 3; ++j)
            text += (j ? " " : "") + sentences[(i + j) % sentences.size()];
        text += "\n\n";
    }
    return text;
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qWarning("cannot write %s", qPrintable(path));
    return path;
}

// Records what the pipeline hands over, and can raise the cancel flag after a chunk.
class RecordingSink final : public ChunkSink
{
public:
    RecordingSink(QIODevice &device, bool plainText) : writer(device, plainText) {}
    void write(const Document &chunk) override
    {
        writer.write(chunk);
        ++chunks;
        if (cancelAfter == chunks)
            cancelled = true;
    }
    ChunkWriter writer;
    int chunks = 0;
    int cancelAfter = -1;
    std::atomic<bool> cancelled = false;
};

} // namespace

class TestChunkedTranslation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(toyModel(), "the toy package or plugin did not load"); }

    // 1 KB chunks of a 12 KB text: every chunk ends at a blank line, and the file translated
    // chunk by chunk is the file translated whole, in its own format and as plain text.
    void chunksTranslateAsTheWholeFile()
    {
        QTemporaryDir dir;
        const QByteArray text = paragraphs(300);
        const QString path = writeFile(dir, QStringLiteral("long.txt"), text);

        glosa::engine::Translator translator(toyModel());
        DocumentTranslator documents(translator);
        Document whole = readDocument(path);
        QVERIFY(documents.translate(whole, glosa::engine::DecodingOptions()));

        for (const bool asText : {false, true}) {
            ChunkedTranslation source(path, 1024);
            QVERIFY(source.isStreamed());
            QCOMPARE(source.encoding(), QStringLiteral("UTF-8"));
            QStringList read;
            int chunks = 0;
            source.scan([&](const Document &chunk) {
                ++chunks;
                for (const Segment &segment : chunk.segments)
                    read << QString::fromUtf8(segment.text);
                QVERIFY(chunk.render().endsWith("\n\n"));
            });
            QVERIFY2(chunks >= 10, qPrintable(QString::number(chunks)));
            QCOMPARE(read.size(), 300);
            QCOMPARE(read.first(), QStringLiteral("the cat is big."));

            QBuffer out;
            out.open(QIODevice::WriteOnly);
            RecordingSink sink(out, asText);
            const std::atomic<bool> cancelled = false;
            QVERIFY(source.translate(documents, glosa::engine::DecodingOptions(), sink, cancelled));
            QCOMPARE(sink.chunks, chunks);
            QCOMPARE(source.translatedCount(), std::size_t(300));
            source.writeUnfinished(sink.writer); // nothing is left
            QCOMPARE(out.data(), asText ? plainText(whole) : whole.render());
        }
    }

    // Cancelled after the second chunk: that chunk is finished, no third one starts, and the
    // rest is written as in the source; a second call translates the rest only.
    void cancelAfterAChunkKeepsTheRestVerbatim()
    {
        QTemporaryDir dir;
        const QByteArray text = paragraphs(120);
        const QString path = writeFile(dir, QStringLiteral("long.txt"), text);
        glosa::engine::Translator translator(toyModel());
        DocumentTranslator documents(translator);
        ChunkedTranslation source(path, 512);

        QBuffer first;
        first.open(QIODevice::WriteOnly);
        RecordingSink sink(first, false);
        sink.cancelAfter = 2;
        QVERIFY(
            !source.translate(documents, glosa::engine::DecodingOptions(), sink, sink.cancelled));
        QCOMPARE(sink.chunks, 2);
        const qint64 finished = first.data().size();
        const std::size_t translated = source.translatedCount();
        QVERIFY(translated > 0 && translated < 120);
        source.writeUnfinished(sink.writer);
        const QByteArray out = first.data();
        QVERIFY2(out.startsWith("el gato es grande.\n\n"), out.left(100));
        // Translated up to the end of the second chunk, the source from there on.
        const qsizetype rest = text.size() - (out.size() - finished);
        QCOMPARE(out.mid(finished), text.mid(rest));
        QCOMPARE(text.mid(rest - 2, 2), QByteArray("\n\n"));
        QVERIFY2(!out.left(finished).contains("the "), out.left(finished));

        sink.cancelled = false;
        QVERIFY(
            source.translate(documents, glosa::engine::DecodingOptions(), sink, sink.cancelled));
        QCOMPARE(source.translatedCount(), std::size_t(120));
        QVERIFY2(!first.data().mid(out.size()).contains("the "), "a paragraph is left");
    }

    // A cancel raised before the call (between two chunks, or by Ctrl+C before it started) stops
    // it before anything is translated; the chunk in progress is written as it was read.
    void cancelBeforeTheCallTranslatesNothing()
    {
        QTemporaryDir dir;
        const QByteArray text = paragraphs(40);
        const QString path = writeFile(dir, QStringLiteral("short.txt"), text);
        glosa::engine::Translator translator(toyModel());
        DocumentTranslator documents(translator);
        ChunkedTranslation source(path, 256);
        QBuffer out;
        out.open(QIODevice::WriteOnly);
        ChunkWriter writer(out, false);
        const std::atomic<bool> cancelled = true;
        QVERIFY(!source.translate(documents, glosa::engine::DecodingOptions(), writer, cancelled));
        QCOMPARE(source.translatedCount(), std::size_t(0));
        source.writeUnfinished(writer);
        QCOMPARE(out.data(), text);
    }

    // Sentences counted over the whole file before the first chunk; reports grow to that
    // total, bytes to the file's size; every paragraph is reported once, numbered in the file.
    void progressCountsTheWholeFile()
    {
        QTemporaryDir dir;
        const QByteArray text = paragraphs(90) + "\n\n\n"; // white space after the last paragraph
        const QString path = writeFile(dir, QStringLiteral("long.txt"), text);
        glosa::engine::Translator translator(toyModel());
        DocumentTranslator documents(translator);
        ChunkedTranslation source(path, 400);
        const Document whole = readDocument(path);
        const std::vector<int> counts = documents.sentenceCounts(whole);
        const qint64 sentences = std::accumulate(counts.begin(), counts.end(), qint64(0));
        QCOMPARE(source.countSentences(documents), sentences);

        QList<ChunkProgress> reports;
        connect(&source, &ChunkedTranslation::progress, this,
                [&](const ChunkProgress &progress) { reports << progress; });
        QList<int> paragraphs;
        connect(&source, &ChunkedTranslation::segmentTranslated, this,
                [&](const Document &chunk, int segment, int paragraph) {
                    QVERIFY(chunk.segments[std::size_t(segment)].translation);
                    paragraphs << paragraph;
                });
        QBuffer out;
        out.open(QIODevice::WriteOnly);
        ChunkWriter writer(out, false);
        QVERIFY(source.translate(documents, glosa::engine::DecodingOptions(), writer, false));
        QVERIFY(out.data().endsWith(".\n\n\n\n\n")); // the white space is written as it was

        QList<int> expected(90);
        std::iota(expected.begin(), expected.end(), 0);
        std::sort(paragraphs.begin(), paragraphs.end());
        QCOMPARE(paragraphs, expected);
        QVERIFY(reports.size() > 2);
        for (qsizetype i = 0; i < reports.size(); ++i) {
            QCOMPARE(reports[i].sentencesTotal, sentences);
            QCOMPARE(reports[i].bytesTotal, qint64(text.size()));
            QCOMPARE(reports[i].last, i == reports.size() - 1);
            if (i > 0) {
                QVERIFY(reports[i].sentencesDone >= reports[i - 1].sentencesDone);
                QVERIFY(reports[i].bytesDone >= reports[i - 1].bytesDone);
            }
        }
        QCOMPARE(reports.last().sentencesDone, sentences);
        QCOMPARE(reports.last().bytesDone, qint64(text.size()));
    }

    // A run of blank lines longer than a chunk is a chunk of white space: kept, and the
    // paragraphs after it are translated too.
    void blankLinesLongerThanAChunkAreKept()
    {
        QTemporaryDir dir;
        const QByteArray text = paragraphs(5) + QByteArray(300, '\n') + paragraphs(5);
        const QString path = writeFile(dir, QStringLiteral("gap.txt"), text);
        glosa::engine::Translator translator(toyModel());
        DocumentTranslator documents(translator);
        ChunkedTranslation source(path, 64);
        QBuffer out;
        out.open(QIODevice::WriteOnly);
        ChunkWriter writer(out, false);
        QVERIFY(source.translate(documents, glosa::engine::DecodingOptions(), writer, false));
        QCOMPARE(source.translatedCount(), std::size_t(10));
        QCOMPARE(out.data().count('\n'), text.count('\n'));
        QVERIFY2(!out.data().contains("the "), out.data());
    }

    // Other formats and encodings are one chunk: the whole document, written by the caller.
    void otherFormatsAreReadWhole()
    {
        QTemporaryDir dir;
        const QString latin1 =
            writeFile(dir, QStringLiteral("notes.txt"), "the dog is small \xe9t\xe9.\n");
        ChunkedTranslation text(latin1, 16);
        QVERIFY(!text.isStreamed());
        QVERIFY(text.encoding() != QLatin1String("UTF-8"));
        const QString md =
            writeFile(dir, QStringLiteral("notes.md"), "# the cat\n\nthe dog is *small*.\n");
        ChunkedTranslation markdown(md, 16);
        QVERIFY(!markdown.isStreamed());
        glosa::engine::Translator translator(toyModel());
        DocumentTranslator documents(translator);
        QCOMPARE(markdown.countSentences(documents), qint64(2));
        QBuffer unused;
        ChunkWriter writer(unused, false);
        QVERIFY(markdown.translate(documents, glosa::engine::DecodingOptions(), writer, false));
        QCOMPARE(unused.data(), QByteArray());
        QCOMPARE(markdown.translatedCount(), std::size_t(2));
        QVERIFY2(markdown.document().render().startsWith("# el gato\n\n"),
                 markdown.document().render());
    }

    // A paragraph longer than limits::kMaxChunkBytes is cut, and the notice says where; a
    // broken first chunk is a DocumentError from the constructor.
    void cutsAndBrokenChunksAreReported()
    {
        QTemporaryDir dir;
        QByteArray lines;
        while (lines.size() <= glosa::limits::kMaxChunkBytes + 4096)
            lines += "the cat is big and the dog is small\n";
        const QString path = writeFile(dir, QStringLiteral("no-blank-lines.txt"), lines);
        QStringList notices;
        ChunkedTranslation source(path, 1024, [&](const QString &notice) { notices << notice; });
        QCOMPARE(notices.size(), 1);
        QVERIFY2(notices.first().startsWith(path + QStringLiteral(": a paragraph runs past")),
                 qPrintable(notices.first()));
        QVERIFY2(notices.first().contains(QStringLiteral("cut at byte ")),
                 qPrintable(notices.first()));

        const QString empty = writeFile(dir, QStringLiteral("empty.srt"), "\n\n");
        QVERIFY_THROWS_EXCEPTION(DocumentError, ChunkedTranslation(empty, 1024));
    }

    // A file cut short after it was opened (the chunks are read as they are needed) is an error,
    // not a loop waiting for the bytes it had.
    void aFileCutShortAfterOpeningIsAnError()
    {
        QTemporaryDir dir;
        // Longer than QFile's read buffer, so that the rest is read from the disk.
        const QString path = writeFile(dir, QStringLiteral("long.txt"), paragraphs(4000));
        ChunkedTranslation source(path, 256);
        QVERIFY(QFile::resize(path, 300));
        try {
            source.scan([](const Document &) {});
            QFAIL("no DocumentError");
        } catch (const DocumentError &error) {
            QVERIFY2(error.message().startsWith(QStringLiteral("cannot read ") + path),
                     qPrintable(error.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestChunkedTranslation)
#include "tst_chunkedtranslation.moc"
