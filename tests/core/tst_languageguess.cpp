// LanguageGuess on the bundled profiles (the bundled evaluation sample's English and Spanish):
// news and documentation prose, which the Tatoeba-made profiles never saw, is told apart; text
// too short or not prose gets no guess rather than a wrong one.
#include "app/core/inference/languageguess.h"

#include <QtTest>

using namespace glosa;

class TestLanguageGuess : public QObject
{
    Q_OBJECT
private slots:
    void bundledProfilesKnowBothLanguages()
    {
        const LanguageGuess &guess = LanguageGuess::bundled();
        QVERIFY(guess.knows(QStringLiteral("en")));
        QVERIFY(guess.knows(QStringLiteral("es")));
        QVERIFY(!guess.knows(QStringLiteral("ko")));
    }

    void guessesTheLanguageOfProse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("language");
        QTest::newRow("en news")
            << "The government announced on Tuesday that it would raise the minimum wage by "
               "four percent next year, after months of negotiations with the unions."
            << "en";
        QTest::newRow("es news")
            << "El gobierno anunció el martes que subirá el salario mínimo un cuatro por ciento "
               "el próximo año, tras meses de negociaciones con los sindicatos."
            << "es";
        QTest::newRow("en docs") << "To install the package, open a terminal and run the "
                                    "following command as the administrator."
                                 << "en";
        QTest::newRow("es docs") << "Para instalar el paquete, abra una terminal y ejecute la "
                                    "siguiente orden como administrador."
                                 << "es";
        QTest::newRow("es without accents")
            << "Los ciudadanos podran votar en las elecciones municipales del proximo domingo"
            << "es";
        QTest::newRow("en with a Spanish name")
            << "Mr. García said that the new bridge over the river would open in the spring."
            << "en";
        // Too little to tell: no guess, so no warning.
        QTest::newRow("one word") << "hola"
                                  << "";
        QTest::newRow("a name") << "Barcelona"
                                << "";
        QTest::newRow("numbers") << "3.14 + 2,71 = 5.85 (2024-05-01)"
                                 << "";
    }
    void guessesTheLanguageOfProse()
    {
        QFETCH(QString, text);
        QFETCH(QString, language);
        QCOMPARE(LanguageGuess::bundled().guess(text), language);
    }

    void trigramsArePaddedWords()
    {
        QCOMPARE(letterTrigrams(QStringLiteral("El, 2 Sol")),
                 (QStringList{" el", "el ", " so", "sol", "ol "}));
    }
};

QTEST_MAIN(TestLanguageGuess)
#include "tst_languageguess.moc"
