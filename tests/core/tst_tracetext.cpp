// What the beam tree, the candidates chart and the steering labels show for a trace's tokens
// (SentenceTrace::words, tokenText): text a person reads, never the model's raw pieces. Byte
// pieces (SentencePiece's byte fallback, "<0xC3>" "<0x93>") become the character they make,
// placeholders the text they stand for, word pieces the word they continue.
#include "app/core/inference/inferenceresult.h"

#include <QtTest>

using namespace glosa;

namespace {
// "▁El" "<0xC3>" "<0x93>" (Ó in UTF-8) "▁artí" "culo" "▁⟨placeholder 0⟩" "</s>" "cu"
SentenceTrace sample()
{
    SentenceTrace t;
    t.pieces = {{1, QStringLiteral("▁El")},    {2, QStringLiteral("<0xC3>")},
                {3, QStringLiteral("<0x93>")}, {4, QStringLiteral("▁artí")},
                {5, QStringLiteral("culo")},   {6, QStringLiteral("▁") + QChar(0xE000)},
                {7, QStringLiteral("</s>")},   {8, QStringLiteral("cu")},
                {9, QStringLiteral("▁")}};
    t.protectedSpans = {QStringLiteral("3.14")};
    return t;
}
} // namespace

class TestTraceText : public QObject
{
    Q_OBJECT
private slots:
    void wordsJoinBytesAndRestorePlaceholders()
    {
        const SentenceTrace t = sample();
        QCOMPARE(t.words({1, 9, 2, 3}), QStringLiteral("El Ó"));
        QCOMPARE(t.words({4, 5, 6}), QStringLiteral("artículo 3.14"));
        bool ends = false;
        QCOMPARE(t.words({1, 7}, &ends), QStringLiteral("El"));
        QVERIFY(ends);
        // An unfinished character is not shown as a replacement character.
        QVERIFY(!t.words({1, 9, 2}).contains(QChar(0xFFFD)));
    }

    void tokenTextShowsWhatAPersonReads_data()
    {
        QTest::addColumn<QList<int>>("before");
        QTest::addColumn<int>("token");
        QTest::addColumn<bool>("wholeWord");
        QTest::addColumn<QString>("shown");
        QTest::newRow("word start") << QList<int>{} << 1 << false << QStringLiteral("·El");
        QTest::newRow("first byte: unfinished")
            << QList<int>{1, 9} << 2 << false << QStringLiteral("…");
        QTest::newRow("second byte: the character")
            << QList<int>{1, 9, 2} << 3 << false << QStringLiteral("Ó");
        QTest::newRow("continuation, alone")
            << QList<int>{1, 4} << 5 << false << QStringLiteral("culo");
        QTest::newRow("continuation, as a word")
            << QList<int>{1, 4} << 5 << true << QStringLiteral("artículo");
        QTest::newRow("fragment, as a word")
            << QList<int>{1, 4} << 8 << true << QStringLiteral("artícu");
        QTest::newRow("byte, as a word") << QList<int>{1, 9, 2} << 3 << true << QStringLiteral("Ó");
        QTest::newRow("placeholder") << QList<int>{1} << 6 << false << QStringLiteral("·3.14");
        QTest::newRow("end") << QList<int>{1} << 7 << false << QStringLiteral("</s>");
    }
    void tokenTextShowsWhatAPersonReads()
    {
        QFETCH(QList<int>, before);
        QFETCH(int, token);
        QFETCH(bool, wholeWord);
        QFETCH(QString, shown);
        QCOMPARE(sample().tokenText(before, token, QStringLiteral("·"), wholeWord), shown);
    }
};

QTEST_MAIN(TestTraceText)
#include "tst_tracetext.moc"
