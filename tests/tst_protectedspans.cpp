// Protected spans (engine/text/protectedspans.h): the C++ rules find exactly the spans the
// training data was made with (tests/data/protected-spans/cases.tsv is written by
// tools/glosa_spans.py, and tools/test_spans.py checks the Python side against the same table),
// restoreSpans puts every span back exactly once, and the general-domain SentencePiece model
// (tests/data/protected-spans/spm.model, the one the packages ship) reads each placeholder as one
// piece.
#include "engine/text/protectedspans.h"
#include "engine/text/tokenizer.h"

#include "testutil.h"

#include <QFile>
#include <QtTest>

using namespace glosa::engine;

Q_DECLARE_METATYPE(std::string)

class TestProtectedSpans : public QObject
{
    Q_OBJECT
private slots:
    void rulesMatchTrainingTable_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<QStringList>("expected");
        QFile file(glosa::test::testDataDir() + "/protected-spans/cases.tsv");
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        int row = 0;
        while (!file.atEnd()) {
            const QString line = QString::fromUtf8(file.readLine()).chopped(1);
            QStringList cols = line.split('\t');
            const std::string text = cols.takeFirst().toStdString();
            QTest::newRow(qPrintable(QString("line %1").arg(++row))) << text << cols;
        }
        QVERIFY(row >= 120); // the 60-sentence suites in both languages and the edge cases
    }
    void rulesMatchTrainingTable()
    {
        QFETCH(std::string, text);
        QFETCH(QStringList, expected);
        const SpanProtector protector;
        QStringList found;
        for (const ProtectedSpan &span : protector.find(text))
            found << QString::fromStdString(span.kind + "=" +
                                            text.substr(span.bytes.begin, span.bytes.size()));
        QCOMPARE(found, expected);
    }

    void restore_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<bool>("appendMissing");
        QTest::addColumn<std::string>("expected");
        const std::string p0 = placeholderText(0), p1 = placeholderText(1);
        QTest::newRow("in place") << "cuesta " + p0 + " a las " + p1 + "." << true
                                  << std::string("cuesta 90 € a las 10:30.");
        QTest::newRow("swapped") << p1 + " y " + p0 << true << std::string("10:30 y 90 €");
        QTest::newRow("second copy dropped") << p0 + " " + p0 + " " + p1 << true
                                             << std::string("90 € 10:30");
        QTest::newRow("lost one appended") << "cuesta " + p0 + ". " << true
                                           << std::string("cuesta 90 €. 10:30");
        QTest::newRow("lost one kept out") << "cuesta " + p0 << false
                                           << std::string("cuesta 90 €");
        QTest::newRow("unknown placeholder dropped") << p0 + placeholderText(7) << false
                                                     << std::string("90 €");
        QTest::newRow("all lost") << std::string() << true << std::string("90 € 10:30");
    }
    void restore()
    {
        QFETCH(std::string, text);
        QFETCH(bool, appendMissing);
        QFETCH(std::string, expected);
        QCOMPARE(restoreSpans(text, {"90 €", "10:30"}, appendMissing), expected);
    }

    void placeholderPieces()
    {
        QCOMPARE(placeholderText(0), std::string("\xee\x80\x80"));
        QCOMPARE(placeholderText(15), std::string("\xee\x80\x8f"));
        QCOMPARE(placeholderIndex(placeholderText(5)), 5);
        QCOMPARE(placeholderIndex("\xe2\x96\x81" + placeholderText(3)), 3);
        QCOMPARE(placeholderIndex("a" + placeholderText(3)), -1);
        QCOMPARE(placeholderIndex("\xee\x81\x80"), -1); // U+E040: beyond the placeholders
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, placeholderText(64));
    }

    // The shipped SentencePiece model has every placeholder as a piece of its own, so a
    // protected span costs the model one or two pieces whatever its length.
    void tokenizerReadsPlaceholdersWhole()
    {
        const Tokenizer tokenizer(
            (glosa::test::testDataDir() + "/protected-spans/spm.model").toStdString());
        for (int k = 0; k < 16; ++k) {
            const std::string text = "costs " + placeholderText(k) + " euros";
            int found = 0;
            for (const Token &token : tokenizer.encode(text)) {
                if (placeholderIndex(token.piece) == k) {
                    ++found;
                    QCOMPARE(token.id, tokenizer.pieceToId(placeholderText(k)));
                    QCOMPARE(text.substr(token.bytes.begin, token.bytes.size()),
                             placeholderText(k));
                }
            }
            QCOMPARE(found, 1);
            QVERIFY(tokenizer.decode(tokenizer.encodeIds(text)) == text);
        }
    }
};

QTEST_GUILESS_MAIN(TestProtectedSpans)
#include "tst_protectedspans.moc"
