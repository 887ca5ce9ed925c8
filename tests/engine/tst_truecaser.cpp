// Truecasing (engine/text/truecaser.h): which first words are read lower-cased, how a translation
// gets its capital back, the table file's limits, and, through the bundled default en→es model,
// that every range the Translator reports still points at the user's own text.
#include "engine/limits.h"
#include "engine/packageerror.h"
#include "engine/runtime.h"
#include "engine/text/truecaser.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include "tests/support/testplugins.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace glosa::engine;

namespace {

// A table as tools/truecase_table.py writes one: lower-case words whose usual form is lower-case.
const Truecaser &table()
{
    static const Truecaser truecaser(std::vector<std::string>{
        "hello", "teacher", "brown", "gym", "dónde", "hola", "éste", "win", "a", "привет"});
    return truecaser;
}

} // namespace

class TestTruecaser : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { runtime::setNumThreads(1); }

    void sentenceInitialWord_data()
    {
        QTest::addColumn<QString>("sentence");
        QTest::addColumn<QString>("lowered"); // the whole sentence as the model reads it
        QTest::newRow("common word") << "Hello!" << "hello!";
        QTest::newRow("one word") << "Teacher" << "teacher";
        QTest::newRow("two words") << "Brown and white" << "brown and white";
        QTest::newRow("after ¿") << "¿Dónde está?" << "¿dónde está?";
        QTest::newRow("after ¡") << "¡Hola!" << "¡hola!";
        QTest::newRow("after a quote") << "«Gym» is open" << "«gym» is open";
        QTest::newRow("accented capital") << "Éste es" << "éste es";
        QTest::newRow("one letter") << "A dog." << "a dog.";
        QTest::newRow("apostrophe ends the word") << "Teacher's pet" << "teacher's pet";
        QTest::newRow("name kept") << "Madrid is big." << "Madrid is big.";
        QTest::newRow("name kept, one word") << "John" << "John";
        QTest::newRow("capitals inside kept") << "McDonald" << "McDonald";
        QTest::newRow("all capitals kept") << "HELLO there" << "HELLO there";
        QTest::newRow("already lower") << "hello" << "hello";
        QTest::newRow("digit first") << "3 Brown dogs" << "3 Brown dogs";
        QTest::newRow("glued to a digit") << "Win32 is old" << "Win32 is old";
        QTest::newRow("only the first word") << "Hello Teacher" << "hello Teacher";
        QTest::newRow("no letters") << "¿?" << "¿?";
        QTest::newRow("empty") << "" << "";
        QTest::newRow("Cyrillic not in the table") << "Пока" << "Пока";
        QTest::newRow("Cyrillic in the table") << "Привет" << "привет";
        QTest::newRow("Han, caseless") << "你好" << "你好";
        QTest::newRow("Arabic, caseless") << "مرحبا" << "مرحبا";
        QTest::newRow("Greek not in the table") << "Γεια σου" << "Γεια σου";
    }
    void sentenceInitialWord()
    {
        QFETCH(QString, sentence);
        QFETCH(QString, lowered);
        const std::string text = sentence.toStdString();
        std::string read = text;
        if (const auto word = table().sentenceInitialWord(text)) {
            // Case only: the same bytes, so every offset into the user's text still holds.
            QCOMPARE(word->lowered.size(), word->bytes.size());
            read.replace(word->bytes.begin, word->bytes.size(), word->lowered);
        }
        QCOMPARE(QString::fromStdString(read), lowered);
        QCOMPARE(read.size(), text.size());
    }

    void capitalizeFirstLetter_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << "hola" << "Hola";
        QTest::newRow("after ¡") << "¡hola!" << "¡Hola!";
        QTest::newRow("after ¿") << "¿dónde está?" << "¿Dónde está?";
        QTest::newRow("after a quote and a space") << "« profesor »" << "« Profesor »";
        QTest::newRow("accented") << "éste" << "Éste";
        QTest::newRow("title case, not upper") << "ǆungla" << "ǅungla";
        QTest::newRow("already capital") << "Hola" << "Hola";
        QTest::newRow("digit first") << "5 perros" << "5 perros";
        QTest::newRow("caseless") << "你好" << "你好";
        QTest::newRow("no letters") << "¡!" << "¡!";
        QTest::newRow("empty") << "" << "";
    }
    void capitalizeFirstLetter()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        std::string s = text.toStdString();
        const bool changed = glosa::engine::capitalizeFirstLetter(s);
        QCOMPARE(QString::fromStdString(s), expected);
        QCOMPARE(changed, text != expected);
        QCOMPARE(s.size(), text.toStdString().size());
    }

    void loadsATable()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("truecase.en");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# a comment\r\nhello\r\n\r\nteacher\nbrown");
        file.close();
        const Truecaser truecaser = Truecaser::load(path.toStdString());
        QCOMPARE(truecaser.size(), std::size_t(3));
        QVERIFY(truecaser.contains("brown"));
        QVERIFY(!truecaser.contains("# a comment"));
        QVERIFY(truecaser.sentenceInitialWord("Teacher").has_value());
    }

    void refusesBadTables_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<qint64>("size"); // > 0: a sparse file of this size instead
        QTest::addColumn<QString>("message");
        QTest::newRow("two words a line") << QByteArray("hello\nice cream\n") << qint64(0)
                                          << "line 2: white space in a word";
        QTest::newRow("not UTF-8") << QByteArray("hello\n\xff\n") << qint64(0)
                                   << "not valid UTF-8 (byte offset 6)";
        QTest::newRow("over the limit")
            << QByteArray() << qint64(limits::kMaxTruecaseBytes + 1)
            << QString("more than the limit of %1").arg(limits::kMaxTruecaseBytes);
    }
    void refusesBadTables()
    {
        QFETCH(QByteArray, content);
        QFETCH(qint64, size);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = dir.filePath("truecase.en");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        if (size > 0)
            QVERIFY(file.resize(size));
        file.close();
        try {
            Truecaser::load(path.toStdString());
            QFAIL("the table was accepted");
        } catch (const PackageError &error) {
            const QString what = QString::fromUtf8(error.what());
            QVERIFY2(what.startsWith(path) && what.contains(message), qPrintable(what));
        }
        QVERIFY_THROWS_EXCEPTION(PackageError,
                                 Truecaser::load(dir.filePath("absent").toStdString()));
    }

    // Through the bundled default en→es model and its own table: "Dog! Teacher, …" read with
    // truecasing is exactly "dog! teacher, …" read without it — the same pieces at the same
    // places of the user's text, the same search, the same translation but for the capitals —
    // while every range, the protected spans and a kept term stay the user's.
    void rangesStayTheUsers()
    {
        QString error;
        const auto model = glosa::test::loadWithBuiltPlugin<TranslationModel>(
            "transformer", GLOSA_SOURCE_DIR "/resources/models/transformer-general-en-es",
            &error);
        QVERIFY2(model, qPrintable(error));
        QVERIFY2(model->truecaser(), "the default en→es package has no truecase table");
        Translator translator(model);
        const std::string typed = "Dog! Teacher, see https://example.org at 10:30.";
        const std::string lower = "dog! teacher, see https://example.org at 10:30.";
        DecodingOptions options = model->defaultDecodingOptions();
        QVERIFY(options.truecase);
        const TranslationResult cased = translator.translate(typed, options);
        options.truecase = false;
        const TranslationResult plain = translator.translate(lower, options);
        QCOMPARE(cased.segments.size(), std::size_t(2));
        QCOMPARE(plain.segments.size(), cased.segments.size());
        for (std::size_t s = 0; s < cased.segments.size(); ++s) {
            const TranslatedSegment &a = cased.segments[s];
            const TranslatedSegment &b = plain.segments[s];
            QVERIFY(a.truecased);
            QVERIFY(!b.truecased);
            QCOMPARE(a.source, b.source);
            QCOMPARE(a.sourceTokens.size(), b.sourceTokens.size());
            for (std::size_t i = 0; i < a.sourceTokens.size(); ++i) {
                QCOMPARE(a.sourceTokens[i].id, b.sourceTokens[i].id);
                QCOMPARE(a.sourceTokens[i].bytes, b.sourceTokens[i].bytes);
                QCOMPARE(a.sourceTokens[i].utf16, b.sourceTokens[i].utf16);
            }
            QCOMPARE(a.protectedSpans, b.protectedSpans);
            QCOMPARE(a.hypotheses.front().tokens, b.hypotheses.front().tokens);
            QCOMPARE(a.texts.front().size(), b.texts.front().size());
            QCOMPARE(a.targetTokens.front().size(), b.targetTokens.front().size());
            for (std::size_t i = 0; i < a.targetTokens.front().size(); ++i)
                QCOMPARE(a.targetTokens.front()[i].bytes, b.targetTokens.front()[i].bytes);
            // The capital is back: the first letter is the only difference.
            std::string expected = b.texts.front();
            glosa::engine::capitalizeFirstLetter(expected);
            QCOMPARE(QString::fromStdString(a.texts.front()), QString::fromStdString(expected));
        }
        // Each piece of "Dog!" covers the user's own characters: the model read lower-case
        // pieces ("▁dog"), their ranges show what was typed ("Dog").
        std::string covered;
        for (const Token &token : cased.segments[0].sourceTokens) {
            if (token.bytes.empty())
                continue; // EOS
            const std::string shown = typed.substr(token.bytes.begin, token.bytes.size());
            std::string piece = token.piece;
            if (piece.rfind("\u2581", 0) == 0)
                piece.erase(0, std::string("\u2581").size());
            QCOMPARE(QString::fromStdString(shown).toLower(), QString::fromStdString(piece));
            QCOMPARE(token.utf16, token.bytes); // ASCII: UTF-16 units are bytes
            covered += shown;
        }
        QCOMPARE(covered, std::string("Dog!"));
        // Read as typed, the model sees other pieces.
        const TranslationResult asTyped = translator.translate(typed, options);
        QVERIFY(!asTyped.segments[0].truecased);
        QVERIFY(asTyped.segments[0].sourceTokens[0].piece !=
                cased.segments[0].sourceTokens[0].piece);
        QCOMPARE(cased.segments[1].protectedSpans,
                 (std::vector<std::string>{"https://example.org", "10:30"}));
        QVERIFY(cased.text.find("https://example.org") != std::string::npos);

        // A kept term first in a sentence is the user's to keep: not lowered.
        options.truecase = true;
        options.keepTerms = {"Teacher"};
        const TranslationResult kept = translator.translate(typed, options);
        QVERIFY(kept.segments[0].truecased);
        QVERIFY(!kept.segments[1].truecased);
        QVERIFY(kept.text.find("Teacher") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestTruecaser)
#include "tst_truecaser.moc"
