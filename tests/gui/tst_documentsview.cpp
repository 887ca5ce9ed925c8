// The Documents view, driven like a user would, with the shipped Transformer
// (resources/models/transformer-en-es) on real documents: the LibreOffice-made .docx fixture and
// a text of 50 everyday sentences (tests/data/documents/sentences.txt) repeated into a longer
// document. Translation runs on the DocumentWorker thread; these tests only wait for signals.
#include "tests/support/appcontextutil.h"
#include "tests/support/stallmeter.h"
#include "tests/support/testutil.h"

#include "app/core/appcontext.h"
#include "app/core/documents/formats.h"
#include "app/core/documents/layout.h"
#include "app/core/documents/ziparchive.h"
#include "app/core/history/recorder.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/settings/settings.h"
#include "app/gui/views/documentsview.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextEdit>
#include <QTextList>
#include <QTextTable>
#include <QTimer>

#include <QtTest>
#include <cmath>
#include <functional>
#include <memory>

using namespace glosa;

namespace {
// The GUI thread's longest stretch away from its event loop while a document translates, in its
// own CPU time: 50 ms, the bound the evaluation dialog is held to, for any long job.
constexpr double kStallBoundMs = 50 * test::kSanitizerSlowdown;
} // namespace

namespace {

QString fixture(const QString &name)
{
    return glosa::test::testDataDir() + QStringLiteral("/documents/") + name;
}

QString hostile(const QString &name)
{
    return glosa::test::testDataDir() + QStringLiteral("/hostile/") + name;
}

QPushButton *button(const QWidget &view, const QString &text)
{
    for (QPushButton *candidate : view.findChildren<QPushButton *>())
        if (candidate->text() == text)
            return candidate;
    return nullptr;
}

// The row and column of the table cell `block` is in; (-1, -1) outside a table.
QPair<int, int> cellOf(const QTextBlock &block)
{
    if (QTextTable *table = QTextCursor(block).currentTable()) {
        const QTextTableCell cell = table->cellAt(block.position());
        return {cell.row(), cell.column()};
    }
    return {-1, -1};
}

// The stretches of `block`'s text whose format `has`, each as long as it goes, trimmed.
QStringList stretches(const QTextBlock &block,
                      const std::function<bool(const QTextCharFormat &)> &has)
{
    QStringList found;
    bool inside = false;
    for (auto it = block.begin(); !it.atEnd(); ++it) {
        const QTextFragment fragment = it.fragment();
        const bool styled = fragment.isValid() && has(fragment.charFormat());
        if (styled && inside)
            found.last() += fragment.text();
        else if (styled)
            found << fragment.text();
        inside = styled;
    }
    for (QString &text : found)
        text = text.trimmed();
    found.removeAll(QString());
    return found;
}

// The same, of a segment read back from an exported file: its stretches with `style`.
QStringList stretches(const documents::Segment &segment, const documents::SegmentLayout &layout,
                      int style)
{
    std::vector<documents::ByteRange> ranges;
    for (const documents::StyledRange &styled : layout.styles)
        if (styled.styles & style)
            ranges.push_back(styled.range);
    std::sort(ranges.begin(), ranges.end(),
              [](const auto &a, const auto &b) { return a.begin < b.begin; });
    std::vector<documents::ByteRange> merged;
    for (const documents::ByteRange &range : ranges)
        if (!merged.empty() && range.begin <= merged.back().end)
            merged.back().end = std::max(merged.back().end, range.end);
        else
            merged.push_back(range);
    QStringList found;
    for (const documents::ByteRange &range : merged)
        found << QString::fromUtf8(segment.text.mid(range.begin, range.size())).trimmed();
    found.removeAll(QString());
    return found;
}

} // namespace

class TestDocumentsView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString package =
            QStringLiteral(GLOSA_SOURCE_DIR "/resources/models/transformer-en-es");
        if (!QFileInfo::exists(package + QStringLiteral("/model.json")))
            QSKIP("resources/models/transformer-en-es is not exported");
        m_context = std::make_unique<test::BundledContext>();
        m_info = ModelCatalog::readPackage(package);
        QVERIFY2(m_info.isValid(), qPrintable(m_info.error));
        if (!m_context->plugins()->pluginForArchitecture(m_info.architecture))
            QSKIP("the transformer plugin is not built");
        QVERIFY(m_dir.isValid());
        // The settings the history recorder reads, away from the user's own.
        glosa::test::isolateAppState(m_dir.filePath(QStringLiteral("settings")),
                                     m_dir.filePath(QStringLiteral("data")),
                                     QStringLiteral("tst_documentsview"));
        // A longer document: the 50 sentences six times over, one paragraph each.
        QFile sentences(fixture(QStringLiteral("sentences.txt")));
        QVERIFY(sentences.open(QIODevice::ReadOnly));
        const QByteArray text = sentences.readAll();
        QFile longer(m_dir.filePath(QStringLiteral("longer.txt")));
        QVERIFY(longer.open(QIODevice::WriteOnly));
        for (int i = 0; i < 6; ++i)
            longer.write(text);
    }

    void translatesADocxWithProgressAndExports()
    {
        DocumentsView view(*m_context);
        if (!showOpened(view, fixture(QStringLiteral("report.docx"))))
            return;
        // One block per paragraph in either pane.
        const int paragraphs = view.presenter()->paragraphCount();
        QVERIFY(paragraphs >= 10);
        QVERIFY(view.sourcePane()->toPlainText().contains(QStringLiteral("sea")));

        QSignalSpy finished(&view, &DocumentsView::finished);
        QList<int> done;
        connect(view.worker(), &documents::DocumentWorker::progress, this,
                [&](int d, int) { done << d; });
        // The GUI thread keeps turning while the worker translates.
        glosa::test::StallMeter meter;
        view.translateDocument();
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(!done.isEmpty());
        QCOMPARE(view.progressBar()->value(), view.progressBar()->maximum());
        QCOMPARE(done.last(), view.progressBar()->maximum());
        QVERIFY2(view.progressText().startsWith(
                     QStringLiteral("%1 / %1 sentences").arg(view.progressBar()->maximum())),
                 qPrintable(view.progressText()));
        QCOMPARE(view.translatedCount(), paragraphs);
        QCOMPARE(view.targetPane()->document()->blockCount(),
                 view.sourcePane()->document()->blockCount());
        const auto [spanish, english] =
            glosa::test::spanishAndEnglishWords(view.targetPane()->toPlainText());
        QVERIFY2(spanish >= 15 && english <= spanish / 5,
                 qPrintable(view.targetPane()->toPlainText()));
        // The preview shows what Export writes: protected text (the e-mail address) verbatim.
        QVERIFY2(view.targetPane()->toPlainText().contains(QStringLiteral("family@example.com")),
                 qPrintable(view.targetPane()->toPlainText()));
        qInfo() << "longest GUI-thread stall while translating:" << meter.worstCpuMs()
                << "ms CPU," << meter.worstWallMs() << "ms wall";
        QVERIFY2(meter.worstCpuMs() < kStallBoundMs, qPrintable(QString::number(meter.worstCpuMs())));
        // Untouched, the cursor is at the start: the first sentence is highlighted on both sides
        // once translated (the formatted source pane first left its cursor at the end, and a
        // block number was taken for a paragraph number: only the source paragraph was marked).
        QCOMPARE(view.sourcePane()->textCursor().position(), 0);
        QCOMPARE(view.currentParagraph(), 0);
        QCOMPARE(view.currentSentence(), 0);
        QCOMPARE(view.targetPane()->extraSelections().size(), 1);

        // The sentence under the cursor is highlighted on both sides.
        QTextCursor cursor(view.sourceBlock(1));
        cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, 2);
        view.sourcePane()->setTextCursor(cursor);
        QCOMPARE(view.currentParagraph(), 1);
        QCOMPARE(view.currentSentence(), 0);
        // In the source, the sentence highlight comes first, then the wavy marks of the words
        // the translation likely left out (coverage warnings), each explained by its tooltip.
        int sentenceMarks = 0, omissionMarks = 0;
        for (const QTextEdit::ExtraSelection &s : view.sourcePane()->extraSelections()) {
            if (!s.format.hasProperty(DocumentsView::kOmissionProperty)) {
                ++sentenceMarks;
                continue;
            }
            ++omissionMarks;
            QCOMPARE(s.format.underlineStyle(), QTextCharFormat::WaveUnderline);
            QVERIFY(!s.cursor.selectedText().isEmpty());
            QVERIFY2(s.format.toolTip().contains(
                         QLocale().toString(s.format.property(DocumentsView::kOmissionProperty)
                                                .toFloat(),
                                            'f', 2)),
                     qPrintable(s.format.toolTip()));
        }
        QCOMPARE(sentenceMarks, 1);
        // The bundled Transformer, greedy, leaves a few words of this document without attention.
        QVERIFY(omissionMarks > 0);
        QCOMPARE(view.targetPane()->extraSelections().size(), 1);
        const QString sourceSentence =
            view.sourcePane()->extraSelections().first().cursor.selectedText();
        const QString targetSentence =
            view.targetPane()->extraSelections().first().cursor.selectedText();
        QVERIFY2(!sourceSentence.isEmpty() && !targetSentence.isEmpty() &&
                     sourceSentence != targetSentence,
                 qPrintable(sourceSentence + " | " + targetSentence));
        QVERIFY(view.sourceBlock(1).text().startsWith(sourceSentence));
        // Clicking in the translation selects the same sentence.
        QTextCursor inTarget(view.targetBlock(1));
        inTarget.movePosition(QTextCursor::EndOfBlock);
        view.targetPane()->setTextCursor(inTarget);
        QCOMPARE(view.currentParagraph(), 1);

        // Export as .docx: the same paragraphs, in Spanish.
        QSignalSpy exported(&view, &DocumentsView::exported);
        const QString out = m_dir.filePath(QStringLiteral("report.es.docx"));
        view.exportTo(out);
        QVERIFY(exported.wait(10000));
        const documents::Document written = documents::readDocument(out);
        const documents::Document source =
            documents::readDocument(fixture(QStringLiteral("report.docx")));
        QCOMPARE(written.segments.size(), source.segments.size());
        QString text;
        for (const documents::Segment &segment : written.segments)
            text += QString::fromUtf8(segment.text) + QLatin1Char('\n');
        QVERIFY2(glosa::test::spanishAndEnglishWords(text).first >= 15, qPrintable(text));
    }

    void cancelKeepsTheFinishedPart_data()
    {
        QTest::addColumn<qint64>("chunkBytes");
        QTest::addColumn<int>("cancelAt"); // sentences done
        // The whole file (12 KB) in one piece; and streamed 2 KB at a time (about six chunks),
        // cancelled in the third, so that finished chunks, the chunk in progress and the
        // untouched rest all go into the export.
        QTest::newRow("one chunk") << (qint64(1) << 20) << 1;
        QTest::newRow("2 KB chunks") << qint64(2048) << 100;
    }
    void cancelKeepsTheFinishedPart()
    {
        QFETCH(qint64, chunkBytes);
        QFETCH(int, cancelAt);
        DocumentsView view(*m_context);
        view.worker()->setChunkBytes(chunkBytes);
        const QString input = m_dir.filePath(QStringLiteral("longer.txt"));
        if (!showOpened(view, input))
            return;
        QCOMPARE(view.sourcePane()->document()->blockCount(), 300);

        QSignalSpy finished(&view, &DocumentsView::finished);
        // Cancel once `cancelAt` sentences are done, by the Cancel button like a user.
        QPushButton *cancel = nullptr;
        for (QPushButton *button : view.findChildren<QPushButton *>())
            if (button->text() == QLatin1String("Cancel"))
                cancel = button;
        QVERIFY(cancel);
        const QMetaObject::Connection cancelling =
            connect(view.worker(), &documents::DocumentWorker::progress, this, [&](int done, int) {
                if (done >= cancelAt && cancel->isEnabled())
                    cancel->click();
            });
        view.translateDocument();
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().first().toBool(), false);
        const int translated = view.translatedCount();
        QVERIFY2(translated > 0 && translated < 300, qPrintable(QString::number(translated)));
        QVERIFY(view.progressText().contains(QStringLiteral(" / 300 sentences")));

        QSignalSpy exported(&view, &DocumentsView::exported);
        const QString out = m_dir.filePath(QStringLiteral("longer.es.txt"));
        view.exportTo(out);
        QVERIFY(exported.wait(10000));
        QFile in(input), written(out);
        QVERIFY(in.open(QIODevice::ReadOnly) && written.open(QIODevice::ReadOnly));
        const QList<QByteArray> before = in.readAll().split('\n');
        const QList<QByteArray> after = written.readAll().split('\n');
        QCOMPARE(after.size(), before.size());
        // The finished paragraphs are in Spanish, the others left exactly as they were.
        int kept = 0;
        QString spanishPart;
        for (int i = 0; i < before.size() - 1; ++i) {
            if (after[i] == before[i])
                ++kept;
            else
                spanishPart += QString::fromUtf8(after[i]) + QLatin1Char('\n');
        }
        QCOMPARE(kept, 300 - translated);
        QVERIFY2(glosa::test::spanishAndEnglishWords(spanishPart).first >= translated,
                 qPrintable(spanishPart));

        // Continue translates only the rest.
        disconnect(cancelling);
        finished.clear();
        view.translateDocument();
        QVERIFY(finished.wait(180000));
        QCOMPARE(finished.first().first().toBool(), true);
        QCOMPARE(view.translatedCount(), 300);
        QCOMPARE(view.progressBar()->value(), 300);
        exported.clear();
        view.exportTo(out);
        QVERIFY(exported.wait(10000));
        written.close();
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QList<QByteArray> done = written.readAll().split('\n');
        QCOMPARE(done.size(), before.size());
        for (int i = 0; i < before.size() - 1; ++i)
            QVERIFY2(done[i] != before[i] && !done[i].isEmpty(), done[i]);
    }

    void subtitlesStreamKeepTheirTimings()
    {
        // 100 cues (the 50 sentences twice), CRLF, streamed 1 KB at a time: the exported .srt
        // has every number and timing line byte for byte, the text in Spanish; as .txt, one
        // paragraph per cue.
        const QList<QByteArray> sentences = [] {
            QFile file(fixture(QStringLiteral("sentences.txt")));
            return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().split('\n')
                                                  : QList<QByteArray>();
        }();
        QCOMPARE(sentences.size(), 50);
        QByteArray srt;
        for (int i = 0; i < 100; ++i)
            srt += QByteArray::number(i + 1) + "\r\n" +
                   QStringLiteral("00:%1:%2,000 --> 00:%1:%3,500\r\n")
                       .arg(i / 20, 2, 10, QLatin1Char('0'))
                       .arg(i % 20 * 3, 2, 10, QLatin1Char('0'))
                       .arg(i % 20 * 3 + 2, 2, 10, QLatin1Char('0'))
                       .toLatin1() +
                   sentences[i % 50] + "\r\n\r\n";
        const QString input = m_dir.filePath(QStringLiteral("talk.srt"));
        QFile file(input);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(srt) == srt.size());
        file.close();

        DocumentsView view(*m_context);
        view.worker()->setChunkBytes(1024);
        if (!showOpened(view, input))
            return;
        QCOMPARE(view.sourcePane()->document()->blockCount(), 100);
        QSignalSpy finished(&view, &DocumentsView::finished);
        view.translateDocument();
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().first().toBool(), true);

        QSignalSpy exported(&view, &DocumentsView::exported);
        const QString out = m_dir.filePath(QStringLiteral("talk.es.srt"));
        view.exportTo(out);
        QVERIFY(exported.wait(10000));
        QFile written(out);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QList<QByteArray> before = srt.split('\n'), after = written.readAll().split('\n');
        QCOMPARE(after.size(), before.size());
        QString text;
        for (int i = 0; i < before.size(); ++i) {
            if (i % 4 == 2)
                text += QString::fromUtf8(after[i]) + QLatin1Char('\n');
            else // number, timing, blank line
                QCOMPARE(after[i], before[i]);
        }
        QVERIFY2(glosa::test::spanishAndEnglishWords(text).first >= 100, qPrintable(text));

        const QString plain = m_dir.filePath(QStringLiteral("talk.es.txt"));
        exported.clear();
        view.exportTo(plain);
        QVERIFY(exported.wait(10000));
        QFile plainFile(plain);
        QVERIFY(plainFile.open(QIODevice::ReadOnly));
        const QByteArray paragraphs = plainFile.readAll();
        QCOMPARE(paragraphs.count("\n\n") + 1, 100);
        QVERIFY(!paragraphs.contains("-->"));
    }

    void scrollingIsLinked()
    {
        DocumentsView view(*m_context);
        view.resize(900, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy opened(&view, &DocumentsView::opened);
        view.openDocument(m_dir.filePath(QStringLiteral("longer.txt")));
        QVERIFY(opened.wait(10000));
        // Both panes scroll by pixels, block for block: the top paragraph of one is put at the top
        // of the other. A pane's top paragraph is probed one pixel in: the pixel row at a block's
        // top edge hit-tests to the block above.
        QTextEdit *source = view.sourcePane();
        QTextEdit *target = view.targetPane();
        QVERIFY(source->verticalScrollBar()->maximum() > 0);
        auto topOf = [](const QTextEdit *pane) {
            return pane->cursorForPosition(QPoint(0, 1)).block().userState();
        };
        auto scrollTo = [](QTextEdit *pane, const QTextBlock &block) {
            const QRectF rect = pane->document()->documentLayout()->blockBoundingRect(block);
            pane->verticalScrollBar()->setValue(int(std::ceil(rect.top())));
        };
        scrollTo(source, view.sourceBlock(150));
        QCOMPARE(topOf(source), 150);
        QCOMPARE(topOf(target), 150);
        scrollTo(target, view.targetBlock(40));
        QCOMPARE(topOf(target), 40);
        QCOMPARE(topOf(source), 40);
    }

    // The source pane showed flat text, bold lost and a table one cell per line. It
    // shows the document as it is formatted, and a click in a table cell still selects that
    // cell's paragraph (and its line in the translation pane).
    void theSourceIsShownFormatted_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("cells"); // the table's, row by row
        QTest::addColumn<QString>("heading");   // a level 1 heading
        QTest::addColumn<QString>("bold");
        QTest::addColumn<QString>("italic");
        QTest::addColumn<QString>("listItem");
        const QStringList report = {QStringLiteral("The house"), QStringLiteral("The food"),
                                    QStringLiteral("It was cheap."),
                                    QStringLiteral("It was expensive.")};
        for (const char *file : {"report.docx", "report.odt", "report.html"})
            QTest::newRow(file) << QString::fromLatin1(file) << report
                                << QStringLiteral("A trip to the sea") << QStringLiteral("weather")
                                << QStringLiteral("beautiful")
                                << QStringLiteral("My father read the newspaper in the garden.");
        QTest::newRow("sample.md")
            << QStringLiteral("sample.md")
            << QStringList{QStringLiteral("the cat"), QStringLiteral("the dog"),
                           QStringLiteral("red"), QStringLiteral("green")}
            << QStringLiteral("the red house") << QStringLiteral("very small")
            << QStringLiteral("big") << QStringLiteral("the house is green");
    }

    void theSourceIsShownFormatted()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, cells);
        QFETCH(QString, heading);
        QFETCH(QString, bold);
        QFETCH(QString, italic);
        QFETCH(QString, listItem);
        DocumentsView view(*m_context);
        if (!showOpened(view, fixture(file)))
            return;
        QTextDocument *source = view.sourcePane()->document();
        const int paragraphs = view.presenter()->paragraphCount();

        // The table is a QTextTable of its cells, each cell's paragraph in its cell.
        QList<QTextTable *> tables;
        for (QTextFrame *frame : source->rootFrame()->childFrames())
            if (auto *table = qobject_cast<QTextTable *>(frame))
                tables << table;
        QCOMPARE(tables.size(), 1);
        QTextTable *table = tables.first();
        QCOMPARE(table->rows() * table->columns(), int(cells.size()));
        QCOMPARE(table->columns(), 2);
        for (int i = 0; i < cells.size(); ++i) {
            const QTextTableCell cell = table->cellAt(i / 2, i % 2);
            QTextCursor inCell = cell.firstCursorPosition();
            inCell.setPosition(cell.lastCursorPosition().position(), QTextCursor::KeepAnchor);
            QCOMPARE(inCell.selectedText(), cells[i]);
        }

        // Every paragraph is one block, found by sourceBlock() and marked with its number.
        int cellParagraph = -1, headingParagraph = -1, listParagraph = -1;
        for (int p = 0; p < paragraphs; ++p) {
            const QTextBlock block = view.sourceBlock(p);
            QVERIFY(block.isValid());
            QCOMPARE(block.userState(), p);
            QCOMPARE(block.text(), view.targetBlock(p).text());
            if (block.text() == cells[3])
                cellParagraph = p;
            if (block.text() == heading)
                headingParagraph = p;
            if (block.text().startsWith(listItem))
                listParagraph = p;
        }
        QVERIFY(cellParagraph >= 0 && headingParagraph >= 0 && listParagraph >= 0);
        QCOMPARE(view.sourceBlock(headingParagraph).blockFormat().headingLevel(), 1);
        QVERIFY(view.sourceBlock(listParagraph).textList());
        QVERIFY(!view.sourceBlock(headingParagraph).textList());

        // Bold and italic runs, and only there.
        auto formatOf = [&](const QString &word) {
            const QTextCursor found = source->find(word);
            QTextCursor at(source);
            at.setPosition(found.selectionStart() + 1); // the format of the character before
            return at.charFormat();
        };
        QVERIFY2(formatOf(bold).fontWeight() >= QFont::Bold, qPrintable(bold));
        QVERIFY(!formatOf(bold).fontItalic());
        QVERIFY2(formatOf(italic).fontItalic(), qPrintable(italic));
        QVERIFY(formatOf(italic).fontWeight() < QFont::Bold);
        QVERIFY(formatOf(cells[0]).fontWeight() < QFont::Bold);

        // A click in the last cell selects its paragraph, shown on the translation side.
        QTextCursor click(view.sourceBlock(cellParagraph));
        click.movePosition(QTextCursor::Right);
        view.sourcePane()->setTextCursor(click);
        QCOMPARE(view.currentParagraph(), cellParagraph);
        QCOMPARE(view.targetPane()->textCursor().block().userState(), cellParagraph);
        QCOMPARE(view.sourcePane()->extraSelections().size(), 1);
        QCOMPARE(view.sourcePane()->extraSelections().first().cursor.selectedText(), cells[3]);
        // And a click on its line in the translation pane selects it in the source.
        view.targetPane()->setTextCursor(QTextCursor(view.targetBlock(headingParagraph)));
        QCOMPARE(view.currentParagraph(), headingParagraph);
        QCOMPARE(view.sourcePane()->textCursor().block().userState(), headingParagraph);
    }

    // The translation pane was one plain line per paragraph beside a formatted source, so the
    // panes did not line up and the user could not see what Export writes. It has the source's
    // blocks (headings, list items, table cells), and the bold and italic where the export puts
    // them (projectSpans: the words the source's were translated into).
    void theTranslationKeepsTheSourcesLayout_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("report.docx") << QStringLiteral("report.docx");
        QTest::newRow("report.html") << QStringLiteral("report.html");
    }
    void theTranslationKeepsTheSourcesLayout()
    {
        QFETCH(QString, file);
        DocumentsView view(*m_context);
        if (!showOpened(view, fixture(file)))
            return;
        QSignalSpy finished(&view, &DocumentsView::finished);
        view.translateDocument();
        QVERIFY(finished.wait(120000));
        QTRY_VERIFY(!view.worker()->isBusy());
        const int paragraphs = view.presenter()->paragraphCount();
        QCOMPARE(view.targetPane()->document()->blockCount(),
                 view.sourcePane()->document()->blockCount());
        int cells = 0, headings = 0, items = 0;
        for (int p = 0; p < paragraphs; ++p) {
            const QTextBlock source = view.sourceBlock(p), target = view.targetBlock(p);
            QVERIFY(target.isValid());
            QCOMPARE(target.userState(), p);
            QCOMPARE(target.text(), view.presenter()->target(p));
            QCOMPARE(target.blockFormat().headingLevel(), source.blockFormat().headingLevel());
            QCOMPARE(bool(target.textList()), bool(source.textList()));
            if (source.textList())
                QCOMPARE(target.textList()->format().style(), source.textList()->format().style());
            QCOMPARE(cellOf(target), cellOf(source));
            cells += cellOf(source).first >= 0;
            headings += source.blockFormat().headingLevel() > 0;
            items += source.textList() != nullptr;
        }
        QCOMPARE(cells, 4);
        QVERIFY(headings >= 1 && items >= 1);

        // Highlighting and linked scrolling go block for block: a click in a cell of the
        // translation's table highlights that cell's paragraph in the source, and the paragraph
        // at the top of one pane is at the top of the other, though their heights differ.
        const int lastCell = paragraphs - 1 - [&] {
            for (int back = 0; back < paragraphs; ++back)
                if (cellOf(view.targetBlock(paragraphs - 1 - back)).first >= 0)
                    return back;
            return paragraphs;
        }();
        QTextCursor inCell(view.targetBlock(lastCell));
        inCell.movePosition(QTextCursor::Right);
        view.targetPane()->setTextCursor(inCell);
        QCOMPARE(view.currentParagraph(), lastCell);
        QCOMPARE(view.sourcePane()->textCursor().block().userState(), lastCell);
        QCOMPARE(view.sourcePane()->extraSelections().first().cursor.block().userState(),
                 lastCell);
        view.resize(1000, 260);
        QTRY_VERIFY(view.sourcePane()->verticalScrollBar()->maximum() > 0 &&
                    view.targetPane()->verticalScrollBar()->maximum() > 0);
        auto topOf = [](const QTextEdit *pane, const QTextBlock &block) {
            return int(std::ceil(
                pane->document()->documentLayout()->blockBoundingRect(block).top()));
        };
        int linked = 0; // of the paragraphs that can be scrolled to the top
        for (int p = 1; p < paragraphs; ++p) {
            QScrollBar *source = view.sourcePane()->verticalScrollBar();
            QScrollBar *target = view.targetPane()->verticalScrollBar();
            const int top = topOf(view.sourcePane(), view.sourceBlock(p));
            if (top > source->maximum())
                break;
            source->setValue(top);
            const int there =
                std::min(target->maximum(), topOf(view.targetPane(), view.targetBlock(p)));
            QVERIFY2(std::abs(target->value() - there) <= 1,
                     qPrintable(QStringLiteral("paragraph %1: %2, not %3")
                                    .arg(p)
                                    .arg(target->value())
                                    .arg(there)));
            linked += cellOf(view.sourceBlock(p)).first >= 0 ? 10 : 1;
        }
        QVERIFY2(linked >= 5, qPrintable(QString::number(linked)));

        // The runs are where the exported file has them.
        QSignalSpy exported(&view, &DocumentsView::exported);
        const QString out = m_dir.filePath(QStringLiteral("layout.") + file);
        view.exportTo(out);
        QVERIFY(exported.wait(30000));
        const documents::Document written = documents::readDocument(out);
        const std::vector<documents::SegmentLayout> layout = documents::describeLayout(written);
        QCOMPARE(int(written.segments.size()), paragraphs);
        int bold = 0;
        for (int p = 0; p < paragraphs; ++p) {
            if (view.sourceBlock(p).blockFormat().headingLevel() > 0)
                continue; // bold as a whole
            const QStringList shownBold = stretches(view.targetBlock(p), [](const auto &format) {
                return format.fontWeight() >= QFont::Bold;
            });
            const auto &segment = written.segments[std::size_t(p)];
            QCOMPARE(shownBold, stretches(segment, layout[std::size_t(p)], documents::Bold));
            const QStringList shownItalic = stretches(
                view.targetBlock(p), [](const auto &format) { return format.fontItalic(); });
            QCOMPARE(shownItalic, stretches(segment, layout[std::size_t(p)], documents::Italic));
            bold += int(shownBold.size());
        }
        QVERIFY(bold >= 1);
    }

    // A table whose cells stand far apart (here one 20,000 columns out, past empty cells) is
    // shown as paragraphs: its grid would be millions of cells for a hostile file, each a block.
    void aMostlyEmptyTableIsShownAsParagraphs()
    {
        QByteArray html = "<p>before</p><table><tr>";
        for (int i = 0; i < 20000; ++i)
            html += "<td></td>";
        html += "<td>far out</td></tr><tr><td>first</td></tr></table><p>after</p>";
        const QString path = m_dir.filePath(QStringLiteral("sparse.html"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(html);
        file.close();
        DocumentsView view(*m_context);
        if (!showOpened(view, path))
            return;
        for (QTextFrame *frame : view.sourcePane()->document()->rootFrame()->childFrames())
            QVERIFY(!qobject_cast<QTextTable *>(frame));
        const QStringList expected = {QStringLiteral("before"), QStringLiteral("far out"),
                                      QStringLiteral("first"), QStringLiteral("after")};
        for (int p = 0; p < expected.size(); ++p)
            QCOMPARE(view.sourceBlock(p).text(), expected[p]);
    }

    // A plain document opened after a formatted one is shown plain: the pane's typing format
    // (the .docx's heading, large and bold) must not carry over to every paragraph.
    void aPlainDocumentAfterAFormattedOneIsShownPlain()
    {
        DocumentsView view(*m_context);
        if (!showOpened(view, fixture(QStringLiteral("report.docx"))))
            return;
        QVERIFY(view.sourceBlock(0).charFormat().fontWeight() >= QFont::Bold ||
                view.sourceBlock(0).blockFormat().headingLevel() > 0);
        QSignalSpy opened(&view, &DocumentsView::opened);
        view.openDocument(fixture(QStringLiteral("sample.txt")));
        QVERIFY(opened.wait(60000));
        const QFont plain = view.sourcePane()->document()->defaultFont();
        for (QTextBlock block = view.sourcePane()->document()->firstBlock(); block.isValid();
             block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextCharFormat format = it.fragment().charFormat();
                QVERIFY2(format.fontWeight() < QFont::Bold, qPrintable(block.text()));
                QVERIFY2(!format.hasProperty(QTextFormat::FontPointSize) ||
                             format.fontPointSize() <= plain.pointSizeF(),
                         qPrintable(block.text()));
            }
        }
    }

    void droppingAFileOpensIt()
    {
        DocumentsView view(*m_context);
        view.show();
        QSignalSpy opened(&view, &DocumentsView::opened);
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(fixture(QStringLiteral("report.odt")))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton,
                              Qt::NoModifier);
        QCoreApplication::sendEvent(&view, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&view, &drop);
        QVERIFY(opened.wait(10000));
        QCOMPARE(view.documentPath(), fixture(QStringLiteral("report.odt")));
        QVERIFY(view.sourcePane()->document()->blockCount() >= 10);

        // Not a document: refused.
        QMimeData image;
        image.setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/photo.jpg"))});
        QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &image, Qt::LeftButton,
                                Qt::NoModifier);
        refused.setAccepted(false);
        QCoreApplication::sendEvent(&view, &refused);
        QVERIFY(!refused.isAccepted());
    }

    void brokenDocumentsSayWhy_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        QTest::newRow("corrupt") << "corrupt.odt"
                                 << "is corrupt";
        QTest::newRow("encrypted") << "encrypted.docx"
                                   << "is password-protected";
        QTest::newRow("empty") << "empty.txt"
                               << "is empty";
    }
    // Settings ▸ Do not translate reaches documents too: through the general
    // RNN, which reads the band "The Rolling Stones" as "Las piedras" and translates the city, the
    // names come out as they are.
    void keptTermsReachDocuments()
    {
        const std::optional<ModelInfo> rnn =
            m_context->catalog().find(QStringLiteral("rnn-general-en-es"));
        QVERIFY(rnn && rnn->isValid());
        const QString path = m_dir.filePath(QStringLiteral("kept.md"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# Music\n\nThe Rolling Stones played in Mexico City.\n");
        file.close();
        settings::keepTerms.setValue(
            QStringList{QStringLiteral("Rolling Stones"), QStringLiteral("Mexico City")});
        DocumentsView view(*m_context);
        QVERIFY(m_context->chooseModel(rnn->id));
        QSignalSpy opened(&view, &DocumentsView::opened);
        view.openDocument(path);
        QVERIFY(opened.wait(20000));
        QTRY_VERIFY(!view.worker()->isBusy());
        QSignalSpy finished(&view, &DocumentsView::finished);
        view.translateDocument();
        QVERIFY(finished.wait(120000));
        settings::keepTerms.reset();
        QVERIFY(m_context->chooseModel(m_info.id));
        const QString target = view.targetPane()->toPlainText();
        QVERIFY2(target.contains(QLatin1String("Rolling Stones")) &&
                     target.contains(QLatin1String("Mexico City")),
                 qPrintable(target));
    }

    void brokenDocumentsSayWhy()
    {
        QFETCH(QString, name);
        QFETCH(QString, message);
        DocumentsView view(*m_context);
        QVERIFY(m_context->chooseModel(m_info.id));
        QSignalSpy failed(&view, &DocumentsView::failed);
        view.openDocument(fixture(name));
        QVERIFY(failed.wait(10000));
        const QString text = failed.first().first().toString();
        QVERIFY2(text.contains(message) && text.contains(name), qPrintable(text));
        QCOMPARE(view.sourcePane()->document()->isEmpty(), true);
    }

    // A PDF on which pdfium is stuck for minutes (tests/data/hostile/pdfium-slow.pdf): Cancel is
    // enabled while the document is read and stops the read at once, its helper process killed;
    // no document is open, no error is shown, and another document opens as usual. Before, Cancel
    // was disabled while reading and the read went on to the 30 s limit.
    void cancelStopsAPdfRead()
    {
        const QString helper = QStringLiteral("glosa-pdftext");
        DocumentsView view(*m_context);
        view.resize(1000, 600);
        view.show();
        QVERIFY(m_context->chooseModel(m_info.id));
        QSignalSpy failed(&view, &DocumentsView::failed);
        QSignalSpy opened(&view, &DocumentsView::opened);
        QSignalSpy messages(&view, &DocumentsView::statusMessage);
        view.openDocument(hostile(QStringLiteral("pdfium-slow.pdf")));
        QTRY_COMPARE_WITH_TIMEOUT(glosa::test::childProcessesNamed(helper), 1, 10000);
        QTest::qWait(200);
        QPushButton *cancel = button(view, QStringLiteral("Cancel"));
        QVERIFY(cancel);
        QVERIFY(cancel->isEnabled());
        QElapsedTimer sinceCancel;
        sinceCancel.start();
        cancel->click();
        QVERIFY(QTest::qWaitFor([&] { return !view.worker()->isBusy(); }, 25000));
        const qint64 latency = sinceCancel.elapsed();
        qInfo("from Cancel to the read's end: %lld ms", latency);
        QVERIFY2(latency < 2000, qPrintable(QString::number(latency)));
        QCOMPARE(glosa::test::childProcessesNamed(helper), 0);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(opened.count(), 0);
        QVERIFY(!messages.isEmpty());
        QVERIFY2(messages.last().first().toString().startsWith(
                     QStringLiteral("Stopped reading pdfium-slow.pdf")),
                 qPrintable(messages.last().first().toString()));
        QVERIFY(!cancel->isEnabled());
        QVERIFY(view.documentPath().isEmpty());
        QVERIFY(view.sourcePane()->document()->isEmpty());

        // The cancel was for that read only.
        if (!showOpened(view, fixture(QStringLiteral("sample.pdf"))))
            return;
        QVERIFY(view.sourcePane()->document()->blockCount() > 3);
    }

    // Closing the window while such a PDF is read: the worker's destructor cancels the read
    // instead of waiting for the time limit (30 s) with the GUI frozen.
    void closingTheViewStopsAPdfRead()
    {
        const QString helper = QStringLiteral("glosa-pdftext");
        auto view = std::make_unique<DocumentsView>(*m_context);
        view->openDocument(hostile(QStringLiteral("pdfium-slow.pdf")));
        QTRY_COMPARE_WITH_TIMEOUT(glosa::test::childProcessesNamed(helper), 1, 10000);
        QTest::qWait(200);
        QElapsedTimer closing;
        closing.start();
        view.reset();
        qInfo("closing the view while a PDF is read: %lld ms", closing.elapsed());
        QVERIFY2(closing.elapsed() < 2000, qPrintable(QString::number(closing.elapsed())));
        QCOMPARE(glosa::test::childProcessesNamed(helper), 0);
    }

    // A streamed text with more than limits::kMaxChunkBytes (1 MiB) past a chunk's end without a
    // blank line is cut there. glosa-cli printed a notice; the view said nothing, and the
    // translation came out in two pieces where the paragraph was cut.
    void aParagraphCutAtTheChunkLimitIsSaid()
    {
        // 1,200 paragraphs of about 1 KB, one a line, and no blank line: 1.2 MB. In chunks of
        // 1 KiB the first chunk reads on to the limit and is cut at a line end past 1 MiB; the
        // rest ends the file. (Few, long paragraphs: the panes fill quickly even under ASan.)
        const QString path = m_dir.filePath(QStringLiteral("no-blank-lines.txt"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            const QByteArray line =
                QByteArray("The cat sat on the mat and looked at the dog. ").repeated(22) + '\n';
            for (int i = 0; i < 1200; ++i)
                file.write(line);
        }
        DocumentsView view(*m_context);
        view.worker()->setChunkBytes(1024);
        QSignalSpy messages(&view, &DocumentsView::statusMessage);
        if (!showOpened(view, path))
            return;
        const QString notice = QStringLiteral("a paragraph runs past the limit of 1 MiB without a "
                                              "blank line; cut at byte ");
        QStringList said;
        for (const QList<QVariant> &message : messages)
            said << message.first().toString();
        QVERIFY2(said.filter(notice).size() == 1, qPrintable(said.join('|')));
        QStringList status; // the status line: the paragraph count, then the notice
        for (QLabel *label : view.findChildren<QLabel *>())
            if (label->text().contains(notice))
                status << label->text();
        QCOMPARE(status.size(), 1);
        QVERIFY2(status.first().contains(path + QStringLiteral(": ") + notice),
                 qPrintable(status.first()));
        // A text with blank lines says nothing of the kind.
        messages.clear();
        if (!showOpened(view, m_dir.filePath(QStringLiteral("longer.txt"))))
            return;
        for (const QList<QVariant> &message : messages)
            QVERIFY(!message.first().toString().contains(notice));
    }

    // A Latin-1 text: read (not streamed as UTF-8, which refused it), its encoding said in the
    // status line, translated, and exported in UTF-8 (output is UTF-8; it was
    // written back in Latin-1).
    void aLatin1TextSaysItsEncodingAndExportsUtf8()
    {
        QTemporaryDir dir;
        const QString in = dir.filePath(QStringLiteral("notas.txt"));
        QFile file(in);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("The children play in the garden.\n\nMy sister reads a book.\n");
        file.write("\nThe caf\xe9 is open.\n");
        file.close();
        DocumentsView view(*m_context);
        if (!showOpened(view, in))
            return;
        QString status;
        for (QLabel *label : view.findChildren<QLabel *>())
            if (label->text().contains(QStringLiteral("not UTF-8")))
                status = label->text();
        QVERIFY2(status.contains(QStringLiteral("ISO-8859-1")) ||
                     status.contains(QStringLiteral("Windows-1252")),
                 qPrintable(status));
        QVERIFY(view.sourcePane()->toPlainText().contains(QStringLiteral("café")));
        QSignalSpy finished(&view, &DocumentsView::finished);
        view.translateDocument();
        QVERIFY(finished.wait(120000));
        QTRY_VERIFY(!view.worker()->isBusy());
        const QString out = dir.filePath(QStringLiteral("notes.es.txt"));
        QSignalSpy exported(&view, &DocumentsView::exported);
        QSignalSpy messages(&view, &DocumentsView::statusMessage);
        view.exportTo(out);
        QVERIFY(exported.wait(30000));
        QFile written(out);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray bytes = written.readAll();
        // Spanish in UTF-8: the accented letters in two bytes each.
        QVERIFY2(QString::fromUtf8(bytes).toUtf8() == bytes, bytes);
        QVERIFY2(QString::fromUtf8(bytes).contains(QStringLiteral("ni\u00f1os")) ||
                     QString::fromUtf8(bytes).contains(QStringLiteral("jard\u00edn")),
                 bytes);
        QVERIFY2(messages.last().first().toString().contains(QStringLiteral("in UTF-8 (the "
                                                                            "document was read as")),
                 qPrintable(messages.last().first().toString()));
    }

    // Post-editing: the translation pane takes corrections, one line per paragraph; Export
    // writes them; translating the document anew asks before it discards edits not exported.
    void editsAreExportedAndTranslatingAgainAsks()
    {
        const ModelInfo reverse = ModelCatalog::readPackage(
            QStringLiteral(GLOSA_SOURCE_DIR "/resources/models/transformer-es-en"));
        DocumentsView view(*m_context);
        if (!showOpened(view, fixture(QStringLiteral("sample.md"))))
            return;
        QSignalSpy finished(&view, &DocumentsView::finished);
        view.translateDocument();
        QVERIFY(finished.wait(120000));
        QTRY_VERIFY(!view.worker()->isBusy());
        QTextEdit *pane = view.targetPane();
        QVERIFY(!pane->isReadOnly());
        const int paragraphs = pane->document()->blockCount();

        // Type at the end of the first paragraph; Return and joining lines are refused.
        QTextCursor end(view.targetBlock(0));
        end.movePosition(QTextCursor::EndOfBlock);
        pane->setTextCursor(end);
        pane->setFocus();
        QTest::keyClicks(pane, QStringLiteral(" (revisado)"));
        QTest::keyClick(pane, Qt::Key_Return);
        QTest::keyClick(pane, Qt::Key_Delete);
        QCOMPARE(pane->document()->blockCount(), paragraphs);
        const QString mine = view.targetBlock(0).text();
        QVERIFY2(mine.endsWith(QStringLiteral(" (revisado)")), qPrintable(mine));
        QCOMPARE(view.edits().value(0).size(), 1); // the sentence typed into
        QVERIFY(mine.endsWith(view.edits().value(0).first()));

        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out.md"));
        QSignalSpy exported(&view, &DocumentsView::exported);
        view.exportTo(out);
        QVERIFY(exported.wait(30000));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray written = file.readAll();
        QVERIFY2(written.startsWith("# " + mine.toUtf8() + "\n"), written.left(200));
        // Exported edits are safe in the file: nothing to ask about until the next edit.
        QVERIFY(!view.hasUnexportedEdits());
        QTest::keyClicks(pane, QStringLiteral("!"));
        QVERIFY(view.hasUnexportedEdits());
        const QString mineNow = view.targetBlock(0).text();

        // Another direction: Translate asks; Cancel keeps the edits, Discard translates anew.
        QVERIFY(m_context->chooseModel(reverse.id));
        auto *translate = view.findChild<QPushButton *>(QStringLiteral("translateDocument"));
        // As a user would: click once Translate is enabled, and each question is answered by its
        // own answer (a click on a disabled button would leave an answer waiting for the next).
        QTRY_VERIFY(translate->isEnabled());
        std::shared_ptr<bool> answered = answerNextQuestion(QMessageBox::Cancel);
        translate->click();
        QVERIFY(*answered); // asked and answered inside click()
        QCOMPARE(view.edits().size(), 1);
        QCOMPARE(view.targetBlock(0).text(), mineNow);
        QTRY_VERIFY(translate->isEnabled());
        answered = answerNextQuestion(QMessageBox::Discard);
        translate->click();
        QVERIFY(*answered);
        // The document is English and the model Spanish → English: the language guard asks
        // first (once the document is read again).
        QTRY_VERIFY_WITH_TIMEOUT(view.languageWarning()->isVisible(), 10000);
        view.translateAnywayButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 120000);
        QVERIFY(view.edits().isEmpty());
        QVERIFY(!view.targetBlock(0).text().contains(QStringLiteral("revisado")));
    }

    // Post-editing one sentence of a paragraph: Export writes it in place of the model's and the
    // paragraph's other sentence keeps its bold; the history gets a document entry with the
    // model's version and the user's.
    void aSentenceEditKeepsTheOtherSentencesMarkupAndIsRecorded_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("part"); // the zip entry with the text; "": the whole file
        QTest::addColumn<QString>("bold"); // what a bold word looks like
        QTest::newRow("html") << QStringLiteral("report.html") << QString()
                              << QStringLiteral("<b>[^<]+</b>");
        QTest::newRow("docx") << QStringLiteral("report.docx")
                              << QStringLiteral("word/document.xml")
                              << QStringLiteral("<w:b/></w:rPr><w:t[^>]*>[^<]+</w:t>");
    }
    void aSentenceEditKeepsTheOtherSentencesMarkupAndIsRecorded()
    {
        QFETCH(QString, file);
        QFETCH(QString, part);
        QFETCH(QString, bold);
        HistoryRecorder *history = m_context->history();
        QVERIFY(history->open(m_dir.filePath(QTest::currentDataTag() + QStringLiteral(".sqlite"))));
        DocumentsView view(*m_context);
        if (!showOpened(view, fixture(file)))
            return;
        QSignalSpy finished(&view, &DocumentsView::finished);
        view.translateDocument();
        QVERIFY(finished.wait(120000));
        QTRY_VERIFY(!view.worker()->isBusy());
        // "Last summer we went to a small town near the sea. The <b>weather</b> was very nice…"
        int paragraph = -1;
        for (QTextBlock b = view.sourcePane()->document()->begin(); b.isValid(); b = b.next())
            if (b.text().startsWith(QStringLiteral("Last summer")))
                paragraph = b.userState();
        QVERIFY(paragraph >= 0);
        QSignalSpy exported(&view, &DocumentsView::exported);
        // The exported text (of the document's XML for a .docx).
        auto exportText = [&](const QString &name) {
            const QString out = m_dir.filePath(name + QLatin1Char('.') + QFileInfo(file).suffix());
            view.exportTo(out);
            QFile written(out);
            if (!exported.wait(30000) || !written.open(QIODevice::ReadOnly))
                return QString();
            const QByteArray bytes = written.readAll();
            if (part.isEmpty())
                return QString::fromUtf8(bytes);
            for (const documents::ZipEntry &zipped : documents::readZip(bytes, out))
                if (zipped.name == part)
                    return QString::fromUtf8(zipped.data);
            return QString();
        };
        const QString unedited = exportText(QStringLiteral("unedited"));
        const QString boldWord = QRegularExpression(bold).match(unedited).captured();
        QVERIFY2(!boldWord.isEmpty(), qPrintable(unedited));

        // Select the translation of the first sentence and type over it.
        QTextEdit *pane = view.targetPane();
        QTextCursor at(view.targetBlock(paragraph));
        pane->setTextCursor(at);
        QCOMPARE(view.currentSentence(), 0);
        QCOMPARE(pane->extraSelections().size(), 1);
        const QTextCursor sentence = pane->extraSelections().first().cursor;
        const QString model = sentence.selectedText();
        // The sentence starts a text node in the file.
        QVERIFY2(!model.isEmpty() && unedited.count(QLatin1Char('>') + model + ' ') == 1,
                 qPrintable(model));
        pane->setTextCursor(sentence);
        pane->setFocus();
        const QString mine = QStringLiteral("El verano pasado fuimos a un pueblo junto al mar.");
        QTest::keyClicks(pane, mine);
        QCOMPARE(view.edits().size(), 1);
        QCOMPARE(view.edits().value(paragraph), (QMap<int, QString>{{0, mine}}));
        // The highlight follows the edited sentence.
        pane->setTextCursor(QTextCursor(view.targetBlock(paragraph)));
        QCOMPARE(pane->extraSelections().first().cursor.selectedText(), mine);

        // Only the sentence changed: the rest of the paragraph, its bold included, is as it was.
        const QString edited = exportText(QStringLiteral("edited"));
        QString expected = unedited;
        expected.replace(QLatin1Char('>') + model + ' ', QLatin1Char('>') + mine + ' ');
        QVERIFY(expected != unedited);
        QCOMPARE(edited, expected);
        QVERIFY(edited.contains(boldWord));

        // The history: one document entry, the model's version next to the user's.
        HistoryFilter documents;
        documents.kind = HistoryKind::Document;
        const HistoryPage page = history->store()->recent(documents);
        QCOMPARE(page.items.size(), 1);
        const std::optional<HistoryEntry> entry = history->store()->entry(page.items[0].id);
        QVERIFY(entry.has_value());
        QVERIFY(entry->inputText.contains(QStringLiteral("Last summer we went")));
        QCOMPARE(entry->inputText.count(QLatin1Char('\n')) + 1,
                 view.sourcePane()->document()->blockCount());
        QVERIFY(entry->bestOutput()->text.contains(model));
        QVERIFY(!entry->bestOutput()->text.contains(mine));
        QCOMPARE(entry->editedText, view.presenter()->targets().join(QLatin1Char('\n')));
        QVERIFY(entry->editedText.contains(mine));
        QCOMPARE(entry->settings.value(QStringLiteral("document")).toString(), fixture(file));
        QVERIFY(entry->outputs.first().alignment.isEmpty()); // no matrices for documents

        // An edit after the export is kept when the user leaves the document.
        QTest::keyClicks(pane, QStringLiteral("¡"));
        QCOMPARE(view.edits().value(paragraph).value(0), QStringLiteral("¡") + mine);
        view.openDocument(fixture(QStringLiteral("sample.txt")));
        QCOMPARE(history->store()->recent(documents).items.size(), 1);
        QVERIFY(
            history->store()->entry(entry->id)->editedText.contains(QStringLiteral("¡") + mine));
        QTRY_VERIFY(!view.worker()->isBusy());
        history->close();
    }

    // After a change of model (a swap) or quality, Translate is enabled again and translates
    // the whole document anew; until then the pane keeps the language it shows in its title.
    void changingTheModelOrQualityAllowsTranslatingAgain()
    {
        const ModelInfo reverse = ModelCatalog::readPackage(
            QStringLiteral(GLOSA_SOURCE_DIR "/resources/models/transformer-es-en"));
        QVERIFY2(reverse.isValid(), qPrintable(reverse.error));
        DocumentsView view(*m_context);
        if (!showOpened(view, fixture(QStringLiteral("sample.txt"))))
            return;
        auto *translate = view.findChild<QPushButton *>(QStringLiteral("translateDocument"));
        auto *title = view.findChild<QLabel *>(QStringLiteral("targetTitle"));
        auto *quality = view.findChild<QComboBox *>(QStringLiteral("quality"));
        QVERIFY(translate && title && quality);
        QCOMPARE(title->text(), QStringLiteral("Translation (Spanish)"));
        QSignalSpy finished(&view, &DocumentsView::finished);
        translate->click();
        QVERIFY(finished.wait(120000));
        QTRY_VERIFY(!view.worker()->isBusy());
        const QString spanish = view.targetPane()->toPlainText();
        const int paragraphs = view.translatedCount();
        QVERIFY(paragraphs > 0);
        QVERIFY(!translate->isEnabled()); // all done with these settings

        // The swap: es → en. The Spanish text is still shown, and said to be.
        QVERIFY(m_context->chooseModel(reverse.id));
        QVERIFY(translate->isEnabled());
        QVERIFY2(title->text().startsWith(QStringLiteral("Translation (Spanish), made with other")),
                 qPrintable(title->text()));
        QCOMPARE(view.targetPane()->toPlainText(), spanish);
        translate->click();
        // An English document and a Spanish → English model: the language guard asks first.
        QTRY_VERIFY_WITH_TIMEOUT(view.languageWarning()->isVisible(), 10000);
        view.translateAnywayButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 120000);
        QTRY_VERIFY(!view.worker()->isBusy());
        QCOMPARE(view.translatedCount(), paragraphs);
        QCOMPARE(title->text(), QStringLiteral("Translation (English)"));
        QVERIFY(view.targetPane()->toPlainText() != spanish);
        QVERIFY(!translate->isEnabled());

        // Quality: Best (beam search) instead of Fast.
        quality->setCurrentIndex(1 - quality->currentIndex());
        QVERIFY(translate->isEnabled());
        quality->setCurrentIndex(1 - quality->currentIndex());
        QVERIFY(!translate->isEnabled()); // back to what the shown translation was made with
    }

private:
    // Shows `view` with the model and opens `path` in it; false (the test failed) when it does
    // not open.
    bool showOpened(DocumentsView &view, const QString &path)
    {
        view.resize(1000, 600);
        view.show();
        m_context->chooseModel(m_info.id);
        QSignalSpy opened(&view, &DocumentsView::opened);
        view.openDocument(path);
        // The worker reports `opened` while it still counts as busy, and the view keeps Translate
        // disabled while busy: under load a click right after `opened` could find it disabled.
        // A bound for a hang, not a speed: a long file under ThreadSanitizer on a loaded machine
        // took more than 10 s to open.
        if (!opened.wait(60000) ||
            !QTest::qWaitFor([&] { return !view.worker()->isBusy(); }, 60000)) {
            QTest::qFail(qPrintable(QStringLiteral("%1 did not open").arg(path)), __FILE__,
                         __LINE__);
            return false;
        }
        return true;
    }

    // Clicks `button` in the next message box as soon as it is open (QMessageBox::question
    // blocks until answered); the returned flag says whether it has.
    static std::shared_ptr<bool> answerNextQuestion(QMessageBox::StandardButton button)
    {
        auto answered = std::make_shared<bool>(false);
        auto *poll = new QTimer(qApp);
        poll->setInterval(20);
        QObject::connect(poll, &QTimer::timeout, [poll, button, answered] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                poll->stop();
                poll->deleteLater();
                *answered = true;
                box->button(button)->click();
            }
        });
        poll->start();
        return answered;
    }

    std::unique_ptr<AppContext> m_context; // the views' models
    ModelInfo m_info;
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestDocumentsView)
#include "tst_documentsview.moc"
