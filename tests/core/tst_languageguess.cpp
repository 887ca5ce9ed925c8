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
        QTest::newRow("a long name") << "Guadalajara"
                                     << "";
        // Short, but a sentence: told apart.
        QTest::newRow("es short") << "¿Dónde está la estación?"
                                  << "es";
        QTest::newRow("en short") << "I lied to them."
                                  << "en";
        QTest::newRow("numbers") << "3.14 + 2,71 = 5.85 (2024-05-01)"
                                 << "";
    }
    void guessesTheLanguageOfProse()
    {
        QFETCH(QString, text);
        QFETCH(QString, language);
        QCOMPARE(LanguageGuess::bundled().guess(text), language);
    }

    // The language guard every view and glosa-cli run: the language the text looks like when it
    // is not the model's source, and the model for the direction it asks for (into the model's
    // target language, else into its source language), looked up the caller's way.
    void theGuardNamesTheLanguageAndOffersADirection_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("model"); // "source target"
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("offer"); // "source target", "" for none
        const QString spanish = QStringLiteral("¿Dónde está la estación?");
        const QString english = QStringLiteral("A trip to the beach with our friends.");
        QTest::newRow("es to en→es") << spanish << "en es" << "es" << "es en";
        QTest::newRow("en to es→en") << english << "es en" << "en" << "en es";
        QTest::newRow("en to en→es") << english << "en es" << "" << "";
        QTest::newRow("es to en→de: into the source") << spanish << "en de" << "es" << "es en";
        QTest::newRow("es to en→fr, no es→*") << spanish << "en fr" << "es" << "";
        QTest::newRow("unprofiled source") << spanish << "ko en" << "" << "";
        QTest::newRow("too short") << QStringLiteral("hola") << "en es" << "" << "";
    }
    void theGuardNamesTheLanguageAndOffersADirection()
    {
        QFETCH(QString, text);
        QFETCH(QString, model);
        QFETCH(QString, language);
        QFETCH(QString, offer);
        const auto info = [](const QString &direction) {
            ModelInfo m;
            m.sourceLanguage = direction.section(' ', 0, 0);
            m.targetLanguage = direction.section(' ', 1, 1);
            m.id = m.sourceLanguage + QLatin1Char('-') + m.targetLanguage;
            return m;
        };
        // Installed: en→es, es→en, en→de, en→fr, ko→en (es→en only for a text in Spanish when
        // the model is not into English, see above).
        const QStringList installed{"en es", "es en", "en de", "en fr", "ko en"};
        const ModelInfo chosen = info(model);
        const LanguageMismatch found = checkSourceLanguage(
            text, chosen, [&](const QString &source, const QString &target) {
                const QString direction = source + QLatin1Char(' ') + target;
                // en→fr's fallback (es→en) is left out to test "no model to offer".
                if (!installed.contains(direction) || (model == "en fr" && direction == "es en"))
                    return std::optional<ModelInfo>();
                return std::optional<ModelInfo>(info(direction));
            });
        QCOMPARE(found.language, language);
        QCOMPARE(found.found(), !language.isEmpty());
        QCOMPARE(found.offer ? found.offer->sourceLanguage + QLatin1Char(' ') +
                                   found.offer->targetLanguage
                             : QString(),
                 offer);
    }

    void trigramsArePaddedWords()
    {
        QCOMPARE(letterTrigrams(QStringLiteral("El, 2 Sol")),
                 (QStringList{" el", "el ", " so", "sol", "ol "}));
    }
};

QTEST_MAIN(TestLanguageGuess)
#include "tst_languageguess.moc"
