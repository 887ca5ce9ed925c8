// A PDF's structure from the boxes of its text (app/core/documents/formats/pdflayout.h): headings
// by size, list items by their markers, tables by aligned cells, footnote marks kept out of the
// words. report.pdf is LibreOffice's PDF of report.html, as report.docx is its Word file
// (tests/data/documents/make_fixtures.sh): what the PDF is read as is compared with what the .docx
// says, heading by heading, item by item and cell by cell. The other cases are pages of boxes
// written here in the helper's own records (formats/pdftext.h).
#include "tests/support/clirunner.h"
#include "tests/support/testutil.h"

#include "app/core/documents/formats.h"
#include "app/core/documents/formats/pdflayout.h"
#include "app/core/documents/layout.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace glosa::documents;
using Kind = BlockRole::Kind;

namespace {

QString fixture(const QString &name)
{
    return glosa::test::testDataDir() + QStringLiteral("/documents/") + name;
}

// What a document's layout says, one line a block that is not a plain paragraph:
// "h1 A trip to the sea", "ul0 We walked…", "ol0 …", "cell 0 1,0 It was cheap.".
QStringList structure(const Document &doc)
{
    const std::vector<SegmentLayout> layout = describeLayout(doc);
    QStringList lines;
    for (std::size_t i = 0; i < layout.size(); ++i) {
        const BlockRole &role = layout[i].role;
        const QString text =
            QString::fromUtf8(doc.segments[i].translation ? doc.segments[i].translation->text
                                                          : doc.segments[i].text)
                .trimmed();
        switch (role.kind) {
        case Kind::Heading:
            lines << QStringLiteral("h%1 %2").arg(role.level).arg(text);
            break;
        case Kind::ListItem:
            lines << QStringLiteral("%1%2 %3")
                         .arg(role.ordered ? QStringLiteral("ol") : QStringLiteral("ul"))
                         .arg(role.level)
                         .arg(text);
            break;
        case Kind::TableCell:
            lines << QStringLiteral("cell %1,%2 %3").arg(role.row).arg(role.column).arg(text);
            break;
        case Kind::Paragraph:
            break;
        }
    }
    return lines;
}

QStringList paragraphs(const Document &doc)
{
    QStringList texts;
    for (const Segment &segment : doc.segments)
        texts << QString::fromUtf8(segment.text);
    return texts;
}

// The height of a 12 pt line's box in pdfium: its capitals and ascenders, and its descenders.
constexpr double kTall = 8.6;
constexpr double kDeep = 11.3;

QByteArray box(double x, double y, double width, double height, const char *text)
{
    return QStringLiteral("box %1 %2 %3 %4 %5\n")
        .arg(x)
        .arg(y)
        .arg(width)
        .arg(height)
        .arg(QString::fromUtf8(text))
        .toUtf8();
}

Document fromRecords(const QByteArray &records)
{
    return formats::pdfDocument(formats::parsePdfPages(records), QStringLiteral("test.pdf"));
}

} // namespace

class TestPdfLayout : public QObject
{
    Q_OBJECT

private slots:
    // The measure of "PDF documents lose their structure": every heading, list item
    // and table cell of report.docx is found in report.pdf, with its level, kind and place; and
    // whether a list is numbered, which Word's file keeps in its numbering part (not read), as
    // report.html, the source of both, says.
    void reportPdfHasTheStructureOfItsDocx()
    {
        const Document pdf = readDocument(fixture(QStringLiteral("report.pdf")));
        const Document docx = readDocument(fixture(QStringLiteral("report.docx")));
        const Document html = readDocument(fixture(QStringLiteral("report.html")));
        const QStringList fromPdf = structure(pdf);
        const QStringList fromDocx = structure(docx);
        qInfo("report.docx: %s", qPrintable(fromDocx.join(QStringLiteral(" | "))));
        qInfo("report.pdf:  %s", qPrintable(fromPdf.join(QStringLiteral(" | "))));
        QCOMPARE(fromDocx.size(), 12); // 3 headings, 5 list items, 4 cells
        QStringList unnumbered = fromPdf;
        unnumbered.replaceInStrings(QRegularExpression(QStringLiteral("^ol")),
                                    QStringLiteral("ul"));
        QCOMPARE(unnumbered, fromDocx);
        QCOMPARE(fromPdf, structure(html));
    }

    // The measure over PDFs made from .docx files by LibreOffice (make_fixtures.sh): of the
    // .docx's headings, list items and table cells, how many the PDF has, with the same text,
    // level and place (whether a list is numbered is not compared: the .docx reader does not
    // read Word's numbering part), and how many it has that the .docx does not. With
    // GLOSA_PDF_MEASURE_DIR, every NAME.docx there with a NAME.pdf beside it is measured too.
    void structureFoundAgainstTheDocx_data()
    {
        QTest::addColumn<QString>("docx");
        QTest::addColumn<QString>("pdf");
        QTest::addColumn<bool>("exact");
        for (const char *name : {"report", "structure"})
            QTest::newRow(name) << fixture(QStringLiteral("%1.docx").arg(QLatin1String(name)))
                                << fixture(QStringLiteral("%1.pdf").arg(QLatin1String(name)))
                                << true;
        const QString dir = qEnvironmentVariable("GLOSA_PDF_MEASURE_DIR");
        if (dir.isEmpty())
            return;
        for (const QFileInfo &docx : QDir(dir).entryInfoList({QStringLiteral("*.docx")})) {
            const QString pdf = docx.absolutePath() + QLatin1Char('/') + docx.completeBaseName() +
                                QStringLiteral(".pdf");
            if (QFileInfo::exists(pdf))
                QTest::newRow(qPrintable(docx.fileName()))
                    << docx.absoluteFilePath() << pdf << false;
        }
    }
    void structureFoundAgainstTheDocx()
    {
        QFETCH(QString, docx);
        QFETCH(QString, pdf);
        QFETCH(bool, exact);
        const Document fromDocx = readDocument(docx);
        const Document fromPdf = readDocument(pdf);
        QStringList source = structure(fromDocx);
        QStringList found = structure(fromPdf);
        // Every text block (a paragraph whole, not cut at its lines or run into the next).
        QStringList sourceTexts = paragraphs(fromDocx), foundTexts = paragraphs(fromPdf);
        for (QStringList *list : {&sourceTexts, &foundTexts})
            for (QString &text : *list)
                text = text.simplified();
        int texts = 0;
        QStringList unmatchedTexts = foundTexts;
        for (const QString &text : sourceTexts)
            texts += unmatchedTexts.removeOne(text);
        for (QStringList *list : {&source, &found})
            list->replaceInStrings(QRegularExpression(QStringLiteral("^ol")), QStringLiteral("ul"));
        QStringList report;
        int allFound = 0, extra = 0;
        for (const auto &[kind, prefix] :
             {std::pair{"headings", "h"}, std::pair{"list items", "ul"},
              std::pair{"table cells", "cell"}}) {
            const QStringList want = source.filter(QRegularExpression(QLatin1Char('^') + prefix));
            const QStringList got = found.filter(QRegularExpression(QLatin1Char('^') + prefix));
            int hits = 0;
            QStringList unmatched = got; // each found once
            for (const QString &line : want)
                hits += unmatched.removeOne(line);
            extra += unmatched.size();
            allFound += hits;
            report
                << QStringLiteral("%1 %2/%3").arg(QLatin1String(kind)).arg(hits).arg(want.size());
        }
        report << QStringLiteral("text blocks %1/%2").arg(texts).arg(sourceTexts.size());
        qInfo("%s: %s; %d in the PDF that the .docx does not have",
              qPrintable(QFileInfo(pdf).fileName()), qPrintable(report.join(QStringLiteral(", "))),
              extra);
        for (const QString &text : sourceTexts)
            if (!foundTexts.contains(text))
                qInfo("  text missed: %s", qPrintable(text));
        for (const QString &text : unmatchedTexts)
            qInfo("  text extra:  %s", qPrintable(text));
        for (const QString &line : source)
            if (!found.contains(line))
                qInfo("  missed: %s", qPrintable(line));
        for (const QString &line : found)
            if (!source.contains(line))
                qInfo("  extra:  %s", qPrintable(line));
        if (exact) {
            QCOMPARE(found, source);
            QCOMPARE(texts, sourceTexts.size());
        }
    }

    // "The exported .docx has no tables and no heading styles": the .docx, .odt and .html
    // written for report.pdf read back (with our own readers, as Word and LibreOffice would)
    // with the PDF's headings, list items and cells, and its footnote mark raised after
    // "famous".
    void writtenFilesKeepTheStructure_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("entry");
        QTest::addColumn<QByteArray>("raisedMark");
        QTest::newRow("docx") << "docx" << QByteArray("word/document.xml")
                              << QByteArray("famous</w:t></w:r><w:r><w:rPr><w:vertAlign "
                                            "w:val=\"superscript\"/></w:rPr><w:t>1</w:t>");
        QTest::newRow("odt") << "odt" << QByteArray("content.xml")
                             << QByteArray("famous<text:span text:style-name=\"Glosa_sup\">1<");
        QTest::newRow("html") << "html" << QByteArray() << QByteArray("famous<sup>1</sup>");
    }
    void writtenFilesKeepTheStructure()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, entry);
        QFETCH(QByteArray, raisedMark);
        const Document pdf = readDocument(fixture(QStringLiteral("report.pdf")));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("report.") + suffix);
        writeDocument(pdf, out);
        const Document back = readDocument(out);
        QStringList expected = structure(pdf);
        QByteArray xml;
        if (entry.isEmpty()) {
            xml = back.render();
        } else {
            for (const ZipEntry &member : back.archive)
                if (member.name == QString::fromLatin1(entry))
                    xml = member.data;
        }
        QVERIFY2(xml.contains(raisedMark), xml.constData());
        if (suffix == QLatin1String("docx")) {
            // Word keeps whether a list is numbered in its numbering part, which our reader
            // does not read: the numbered items are those of numbering 2.
            QCOMPARE(xml.count("<w:numId w:val=\"2\"/>"),
                     expected.filter(QStringLiteral("ol0")).size());
            expected.replaceInStrings(QRegularExpression(QStringLiteral("^ol")),
                                      QStringLiteral("ul"));
        }
        QCOMPARE(structure(back), expected);
    }

    // The .txt keeps the PDF's paragraphs, each on as many lines as on the page.
    void writtenTextKeepsTheLines()
    {
        const Document pdf = readDocument(fixture(QStringLiteral("report.pdf")));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("report.txt"));
        writeDocument(pdf, out);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY2(text.contains("\n\nWhat we did\n\nWe walked along the beach every morning.\n\n"),
                 text.constData());
        QVERIFY2(!text.contains('<'), text.constData());
    }

    // "famous1": the raised 1 is not a word of the sentence the model reads; it is kept as
    // markup after "famous", and the note's own number is not part of the note's text.
    void footnoteMarksAreKeptApart()
    {
        const Document pdf = readDocument(fixture(QStringLiteral("report.pdf")));
        const QStringList texts = paragraphs(pdf);
        const qsizetype at = texts.indexOf(
            QStringLiteral("The old church in the town is very famous and many people visit it."));
        QVERIFY2(at >= 0, qPrintable(texts.join(QLatin1Char('|'))));
        const Segment &segment = pdf.segments[std::size_t(at)];
        const auto mark =
            std::find_if(segment.spans.begin(), segment.spans.end(),
                         [](const InlineSpan &s) { return s.open == "<sup>1</sup>"; });
        QVERIFY(mark != segment.spans.end());
        QCOMPARE(segment.text.left(mark->range.begin), QByteArray("The old church in the town is "
                                                                  "very famous"));
        QCOMPARE(mark->range.size(), 0);
        QVERIFY2(texts.contains(QStringLiteral("The church was built a long time ago.")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(pdf.render().contains("famous<sup>1</sup> and many"));
    }

    // Translated by the shipped model through glosa-cli, as a user would: the footnote mark
    // follows the translated word whole ("famosa<sup>1</sup>", not "famos<sup>1</sup>a", where
    // the model's pieces part the word), and each list item starts with its capital
    // ("• caminamos" was the model reading the bullet as the sentence's first word).
    void translatedMarksAndItemsStayWhole()
    {
        const QString models = QStringLiteral(GLOSA_SOURCE_DIR "/resources/models");
        if (!QFileInfo::exists(models + QStringLiteral("/transformer-general-en-es/model.json")))
            QSKIP("resources/models/transformer-general-en-es is not exported");
        QTemporaryDir dir;
        auto translate = [&](const QString &suffix) {
            const QString out = dir.filePath(QStringLiteral("report.es.") + suffix);
            const glosa::test::CliRun run = glosa::test::runGlosaCli(
                {"translate-doc", "--model", "transformer-general-en-es", "--force-language",
                 fixture(QStringLiteral("report.pdf")), "-o", out},
                {{QStringLiteral("GLOSA_MODEL_PATH"), models},
                 {QStringLiteral("GLOSA_PLUGIN_PATH"),
                  QStringLiteral(GLOSA_BINARY_DIR "/plugins")}});
            if (run.exitCode != 0)
                qWarning("%s", run.err.constData());
            return readDocument(out);
        };
        const Document docx = translate(QStringLiteral("docx"));
        QByteArray body;
        for (const ZipEntry &member : docx.archive)
            if (member.name == QLatin1String("word/document.xml"))
                body = member.data;
        const QRegularExpression raised(
            QStringLiteral("(\\w)</w:t></w:r><w:r><w:rPr><w:vertAlign w:val=\"superscript\"/>"
                           "</w:rPr><w:t>1</w:t></w:r><w:r><w:t xml:space=\"preserve\">(.)"),
            QRegularExpression::UseUnicodePropertiesOption);
        const QRegularExpressionMatch mark = raised.match(QString::fromUtf8(body));
        QVERIFY2(mark.hasMatch(), body.constData());
        QVERIFY2(!mark.captured(2).front().isLetter(), body.constData());
        const QString written = QString::fromUtf8(translate(QStringLiteral("html")).render());
        QCOMPARE(written.count(QStringLiteral("<sup>1</sup>")), 2); // the mark and the note's
        const QRegularExpression inside(QStringLiteral("\\w<sup>1</sup>\\w"),
                                        QRegularExpression::UseUnicodePropertiesOption);
        QVERIFY2(!written.contains(inside), qPrintable(written));
        const QRegularExpression item(QStringLiteral("<li>(.)"),
                                      QRegularExpression::UseUnicodePropertiesOption);
        int items = 0;
        for (auto it = item.globalMatch(written); it.hasNext(); ++items) {
            const QString first = it.next().captured(1);
            QVERIFY2(first.front().isUpper(), qPrintable(written));
        }
        QCOMPARE(items, 5);
    }

    // "• caminamos": the bullet is the list's, not the first word of the item's text.
    void bulletsAreNotInTheText()
    {
        const Document pdf = readDocument(fixture(QStringLiteral("report.pdf")));
        for (const QString &text : paragraphs(pdf))
            QVERIFY2(!text.startsWith(QStringLiteral("\u2022")) &&
                         !text.startsWith(QStringLiteral("1.")),
                     qPrintable(text));
        QVERIFY(
            paragraphs(pdf).contains(QStringLiteral("We walked along the beach every morning.")));
    }

    // Lists nest by their markers' indentation; a wrapped item's second line continues it; a
    // numbered list after a bulleted one is a list of its own.
    void nestedListsByIndentation()
    {
        const Document doc = fromRecords(
            "page\n" + box(72, 100, 3, 3, "\u2022") + box(86, 96, 200, kTall, "First item that") +
            box(86, 112, 100, kDeep, "wraps onto a second line.") + box(90, 131, 3, 3, "\u25e6") +
            box(104, 127, 150, kTall, "Inner item") + box(72, 146, 3, 3, "\u2022") +
            box(86, 142, 150, kTall, "Back out") + box(72, 158, 10, kTall, "1.") +
            box(86, 158, 150, kTall, "Numbered one") + box(72, 174, 10, kTall, "2.") +
            box(86, 174, 150, kTall, "Numbered two"));
        QCOMPARE(structure(doc),
                 QStringList({"ul0 First item that wraps onto a second line.", "ul1 Inner item",
                              "ul0 Back out", "ol0 Numbered one", "ol0 Numbered two"}));
    }

    // Headings rank by size: 24 pt is level 1, 18 pt level 2, the 12 pt body is paragraphs;
    // a heading on two lines is one heading. A paragraph keeps its lines for a .txt.
    void headingsRankBySize()
    {
        // 24 pt with a descender, 18 pt without, 12 pt with and without.
        const Document doc = fromRecords(
            "page\n" + box(72, 60, 200, 22.6, "Big Title") + box(72, 90, 200, 13, "Section One") +
            box(72, 112, 200, 13, "Continued Here") +
            box(72, 150, 300, kDeep, "Body text that goes on") +
            box(72, 165, 300, kDeep, "over three lines of the page") +
            box(72, 180, 100, kTall, "and ends.") + box(72, 210, 200, 13, "Section Two") +
            box(72, 240, 300, kDeep, "More body, with a y."));
        QCOMPARE(structure(doc),
                 QStringList({"h1 Big Title", "h2 Section One Continued Here", "h2 Section Two"}));
        const QStringList texts = paragraphs(doc);
        const qsizetype body =
            texts.indexOf(QStringLiteral("Body text that goes on over three lines of the page and "
                                         "ends."));
        QVERIFY2(body >= 0, qPrintable(texts.join(QLatin1Char('|'))));
        QCOMPARE(doc.segments[std::size_t(body)].lines, 3);
    }

    // Cells line up down the rows; an empty cell stays empty; a lone row with a wide gap is
    // not a table.
    void tablesFromAlignedCells()
    {
        const Document doc = fromRecords(
            "page\n" + box(72, 100, 60, kTall, "Name") + box(172, 100, 60, kDeep, "Age") +
            box(272, 100, 60, kTall, "Town") + box(72, 118, 60, kTall, "Ana") +
            box(272, 118, 60, kDeep, "Lugo") + box(72, 136, 60, kTall, "Luis") +
            box(172, 136, 60, kTall, "40") + box(272, 136, 60, kDeep, "Vigo") +
            box(72, 180, 60, kTall, "Alone") + box(300, 180, 60, kDeep, "Apart"));
        QCOMPARE(structure(doc),
                 QStringList({"cell 0,0 Name", "cell 0,1 Age", "cell 0,2 Town", "cell 1,0 Ana",
                              "cell 1,2 Lugo", "cell 2,0 Luis", "cell 2,1 40", "cell 2,2 Vigo"}));
        QVERIFY(paragraphs(doc).contains(QStringLiteral("Alone Apart")));
    }

    // A page the helper gave as lines (too much text to place box by box) is read as a .txt:
    // blank lines part paragraphs.
    void pagesGivenAsLinesAreParagraphs()
    {
        const Document doc = fromRecords("page\ntext the cat is\ntext small.\ntext \ntext A dog.\n"
                                         "page\n" +
                                         box(72, 100, 100, kTall, "Hello there."));
        QCOMPARE(paragraphs(doc), QStringList({"the cat is small.", "A dog.", "Hello there."}));
        QVERIFY(structure(doc).isEmpty());
    }

    // What a damaged or hostile PDF can make the helper report: boxes anywhere, of any size
    // (huge, tiny, overlapping, NaN), with markers, numbers and gaps at random. 20,000 boxes
    // read in a few seconds at most, without a crash, and every box's text is kept somewhere.
    void randomBoxesAreReadQuickly()
    {
        QRandomGenerator random(41);
        const QStringList texts = {"\u2022", "1.",         "1",  "*", "Word", "Two words", "a)",
                                   "x y z",  "\u00e1rbol", "12", "Q", " ",    "The end."};
        QByteArray records;
        for (int i = 0; i < 20000; ++i) {
            if (i % 700 == 0)
                records += "page\n";
            const double scale = random.bounded(10) == 0 ? 1e6 : 1.0;
            records +=
                box(random.bounded(600.0) * scale, (i % 700) * 1.1 + random.bounded(3.0),
                    random.bounded(200.0), random.bounded(30.0) * scale,
                    texts[int(random.bounded(qsizetype(texts.size())))].toUtf8().constData());
            if (i % 5000 == 0)
                records += "box nan nan 10 10 NaN\nbox 1 1 inf 10 Inf\nbox 1 1 -5 -5 Negative\n";
        }
        QElapsedTimer clock;
        clock.start();
        const Document doc = fromRecords(records);
        qInfo("20,000 random boxes: %lld segments in %lld ms", qint64(doc.segments.size()),
              clock.elapsed());
        QVERIFY(clock.elapsed() < 10'000);
        QVERIFY(!doc.segments.empty());
        QVERIFY(paragraphs(doc).join(QLatin1Char(' ')).contains(QStringLiteral("Word")));
        QVERIFY(!describeLayout(doc).empty());
        QTemporaryDir dir;
        for (const char *suffix : {"docx", "odt", "html", "txt"})
            writeDocument(doc, dir.filePath(QStringLiteral("random.") + QLatin1String(suffix)));
    }

    // Records that are not the helper's are skipped, boxes of no size or text too, and a
    // payload with no text is the user's "no text" message.
    void damagedRecordsAreSkipped()
    {
        const Document doc =
            fromRecords("page\nbox 1 2 3\nbox x y z w Bad\nbox 72 100 0 11 Zero\nwhat\n" +
                        box(72, 100, 80, kTall, "Kept."));
        QCOMPARE(paragraphs(doc), QStringList({"Kept."}));
        QVERIFY_THROWS_EXCEPTION(DocumentError, fromRecords("page\nbox 72 100 50 11  \n"));
        QVERIFY_THROWS_EXCEPTION(DocumentError, fromRecords(QByteArray()));
    }
};

QTEST_GUILESS_MAIN(TestPdfLayout)
#include "tst_pdflayout.moc"
