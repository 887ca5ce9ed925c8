// WordCheck on the system's real Hunspell dictionaries (hunspell-es, hunspell-fr,
// scripts/setup-common.sh installs them): real Spanish and French words are known, the words the
// bundled models made up are marked, and what is no word to check (numbers, names, acronyms,
// words of the source, elided articles) is not. Skips with a message where a dictionary is absent.
#include "app/core/inference/wordcheck.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

using namespace glosa;

namespace {

std::shared_ptr<const WordCheck> dictionaryOf(const QString &language)
{
    return WordCheck::load(language, WordCheck::dictionaryFolders());
}

QString marked(const WordCheck &check, const QString &text, const QString &source)
{
    QStringList words;
    for (const UnknownWord &w : check.unknownWords(text, source)) {
        // The range is the word's, in the text.
        if (text.mid(w.begin, w.end - w.begin) != w.word)
            return QStringLiteral("bad range %1-%2").arg(w.begin).arg(w.end);
        words << w.word;
    }
    return words.join(u'|');
}

} // namespace

class TestWordCheck : public QObject
{
    Q_OBJECT
private slots:
    void findsTheDictionaryOfALanguage()
    {
        const QString spanish =
            WordCheck::findDictionary(QStringLiteral("es"), WordCheck::dictionaryFolders());
        if (spanish.isEmpty())
            QSKIP("no Spanish Hunspell dictionary (apt-get install hunspell-es)");
        QVERIFY2(spanish.endsWith(QStringLiteral("/es_ES.dic")), qPrintable(spanish));
        // ISO 639-3, as imported models name their languages.
        QCOMPARE(WordCheck::findDictionary(QStringLiteral("spa"), WordCheck::dictionaryFolders()),
                 spanish);
        // A folder of one's own comes first; a region is taken when the language has no usual
        // one there.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const char *name : {"es_MX.dic", "es_MX.aff"}) {
            QFile file(dir.filePath(QString::fromLatin1(name)));
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        QCOMPARE(WordCheck::findDictionary(QStringLiteral("es"),
                                           {dir.path(), QStringLiteral("/usr/share/hunspell")}),
                 dir.filePath(QStringLiteral("es_MX.dic")));
        // A dictionary without its affix file is none (a clear reason, no Hunspell error).
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("es_MX.aff"))));
        QString error;
        QVERIFY(!WordCheck::load(QStringLiteral("es"), {dir.path()}, &error));
        QVERIFY2(error.contains(QStringLiteral("cannot be read")), qPrintable(error));
        // A language without a dictionary has none; a language code is never a path.
        QVERIFY(WordCheck::findDictionary(QStringLiteral("xx"), WordCheck::dictionaryFolders())
                    .isEmpty());
        QVERIFY(WordCheck::findDictionary(QStringLiteral("../es_ES"), {dir.path()}).isEmpty());
    }

    void aLanguageWithoutADictionaryChecksNothing()
    {
        QString error;
        QVERIFY(!WordCheck::load(QStringLiteral("xx"), WordCheck::dictionaryFolders(), &error));
        QVERIFY2(error.contains(QStringLiteral("no Hunspell dictionary of 'xx'")),
                 qPrintable(error));
        QVERIFY(!WordCheck::forLanguage(QStringLiteral("xx")));
    }

    void marksSpanishWordsNoDictionaryKnows_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("marked");
        // What the bundled models wrote (issue #41): pieces joined into no word.
        QTest::newRow("Holalo") << "¡Holalo!" << "Hello!" << "Holalo";
        QTest::newRow("gimna") << "Voy al gimna." << "I go to the gym." << "gimna";
        QTest::newRow("a right translation") << "¡Hola, mi amigo!" << "Hello, my friend!" << "";
        // Inflected forms are Hunspell's: plurals, conjugations, clitics.
        QTest::newRow("inflected") << "Los gatos comieron y se durmieron."
                                   << "The cats ate and fell asleep." << "";
        // Hunspell's case: a listed "hola" accepts "HOLA" and "Hola".
        QTest::newRow("case") << "HOLA. Hola." << "HELLO. Hello." << "";
        // Words of the source are not the model's inventions: a name, a word left untranslated.
        QTest::newRow("copied") << "Tom vive en Wolfsburg con Ferdinand." << "Tom lives in "
                                << "";
        QTest::newRow("copied, case aside") << "valley y software" << "The Valley software" << "";
        // A capital inside a sentence is a name; at its start it is not.
        QTest::newRow("names") << "Vi a Kwabena ayer. Xolimbo llegó." << "I saw him." << "Xolimbo";
        // Quoted speech starts a sentence of its own.
        QTest::newRow("quoted") << "Tom dijo: \"Xolimbo\" a Kwabena (Zulmo), y luego «¡Glorfo!»."
                                << "Tom said." << "Xolimbo|Glorfo";
        QTest::newRow("numbers, acronyms, codes")
            << "Son 25kg, 3D y la OTANX en foo_bar, ejemplo.com y ana@correo.es." << "" << "";
        QTest::newRow("hyphenated") << "un coche rojo-verde y un glorfo-rojo" << "" << "glorfo";
        QTest::newRow("empty") << "" << "" << "";
        QTest::newRow("punctuation only") << "¡¿…?!" << "" << "";
    }

    void marksSpanishWordsNoDictionaryKnows()
    {
        const std::shared_ptr<const WordCheck> check = dictionaryOf(QStringLiteral("es"));
        if (!check)
            QSKIP("no Spanish Hunspell dictionary (apt-get install hunspell-es)");
        QFETCH(QString, text);
        QFETCH(QString, source);
        QFETCH(QString, marked);
        QCOMPARE(::marked(*check, text, source), marked);
    }

    void elidedWordsAreCheckedOneByOne()
    {
        const std::shared_ptr<const WordCheck> check = dictionaryOf(QStringLiteral("fr"));
        if (!check)
            QSKIP("no French Hunspell dictionary (apt-get install hunspell-fr)");
        QCOMPARE(marked(*check, QStringLiteral("L'homme boit de l’eau qu'il aime."), {}),
                 QString());
        QCOMPARE(marked(*check, QStringLiteral("Il boit d'glorfeau."), {}),
                 QStringLiteral("d'glorfeau"));
    }

    void aTokenExplainsEachWord()
    {
        const std::shared_ptr<const WordCheck> check = dictionaryOf(QStringLiteral("es"));
        if (!check)
            QSKIP("no Spanish Hunspell dictionary (apt-get install hunspell-es)");
        // "¡Holalo!" as the bundled model's pieces: "▁¡", "Hola", "lo", "!"; "lo" the least
        // probable, where the word went astray.
        TranslationHypothesis h;
        h.text = QStringLiteral("¡Holalo!");
        h.tokens = {{1, QStringLiteral("▁¡"), 0, 1},
                    {2, QStringLiteral("Hola"), 1, 5},
                    {3, QStringLiteral("lo"), 5, 7},
                    {4, QStringLiteral("!"), 7, 8}};
        h.tokenLogProbs = {-0.1f, -0.2f, -2.5f, -0.1f};
        const QList<UnknownWord> words = check->unknownWords(h, QStringLiteral("Hello!"));
        QCOMPARE(words.size(), 1);
        QCOMPARE(words.first().token, 2);
        // Without probabilities: its first token.
        h.tokenLogProbs.clear();
        QCOMPARE(check->unknownWords(h, QStringLiteral("Hello!")).first().token, 1);
    }

    void theProcessLoadsADictionaryOnceAndChecksFast()
    {
        const std::shared_ptr<const WordCheck> first = WordCheck::forLanguage(QStringLiteral("es"));
        if (!first)
            QSKIP("no Spanish Hunspell dictionary (apt-get install hunspell-es)");
        QCOMPARE(WordCheck::forLanguage(QStringLiteral("es")).get(), first.get());
        // A page of text (about 2,000 words, each new to the check) in well under the 100 ms a
        // keystroke may take.
        QString text;
        for (int i = 0; i < 400; ++i)
            text += QStringLiteral("La casa númeroxq%1%2 tiene ventanas grandes y puertas rojas. ")
                        .arg(QChar(u'a' + i % 26))
                        .arg(QChar(u'a' + i / 26));
        QElapsedTimer timer;
        timer.start();
        const QList<UnknownWord> words = first->unknownWords(text, {});
        const qint64 ms = timer.elapsed();
        qInfo("checked %lld characters in %lld ms", qint64(text.size()), ms);
        QCOMPARE(words.size(), 400); // each "númeroxq…"
        QVERIFY2(ms < 1000, qPrintable(QString::number(ms)));
    }
};

QTEST_GUILESS_MAIN(TestWordCheck)
#include "tst_wordcheck.moc"
