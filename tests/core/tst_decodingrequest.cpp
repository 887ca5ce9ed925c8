// decodingRequest() (app/core/inference/decodingrequest.h), the one place a request's decoding is
// put together for the decoding panel, the Documents worker and glosa-cli: a real package's
// defaults (transformer-general-en-es's model.json: beam 6, α 2, <unk> and <pad> suppressed) under
// the person's choices and the do-not-translate terms of the app's settings.
#include "app/core/inference/decodingrequest.h"
#include "app/core/settings/settings.h"
#include "engine/decoding/decodingfields.h"

#include "tests/support/testutil.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <stdexcept>

using namespace glosa;
using engine::DecodingOptions;
using engine::SearchStrategy;

class TestDecodingRequest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateAppState(m_dir.path(), m_dir.path(), QStringLiteral("tst_decodingrequest"));
        QFile file(QStringLiteral(GLOSA_SOURCE_DIR
                                  "/resources/models/transformer-general-en-es/model.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        m_defaults = engine::decodingOptionsFromJson(
            nlohmann::json::parse(file.readAll().toStdString()).at("decoding"));
        QCOMPARE(m_defaults.beamSize, 6);
        QVERIFY(!m_defaults.suppressTokens.empty());
    }

    void init() { settings::keepTerms.reset(); }

    void nothingChosenIsThePackagesOwn()
    {
        DecodingChoices none;
        none.keepTerms = std::vector<std::string>{};
        QCOMPARE(QString::fromStdString(
                     engine::decodingOptionsToJson(decodingRequest(m_defaults, none)).dump()),
                 QString::fromStdString(engine::decodingOptionsToJson(m_defaults).dump()));
    }

    // A panel or a preset chooses every setting; the package still suppresses its tokens.
    void aWholeFormReplacesEverySettingOnly()
    {
        DecodingOptions shown;
        shown.strategy = SearchStrategy::Beam;
        shown.beamSize = 3;
        shown.nBest = 5; // stale: more than the beam
        shown.noRepeatNgramSize = 2;
        const DecodingOptions o = decodingRequest(m_defaults, everySetting(shown));
        QCOMPARE(o.beamSize, 3);
        QCOMPARE(o.lengthPenalty, shown.lengthPenalty); // the form's, not the package's 2.0
        QCOMPARE(o.noRepeatNgramSize, 2);
        QCOMPARE(o.nBest, 3);
        QCOMPARE(o.suppressTokens, m_defaults.suppressTokens);
        o.validate();

        shown.strategy = SearchStrategy::Greedy; // the n-best control is hidden, its value stale
        QCOMPARE(decodingRequest(m_defaults, everySetting(shown)).nBest, 1);
    }

    // glosa-cli names the options it was given: the rest stays the package's, and a
    // contradiction is left for validate() to name rather than quietly fitted.
    void namedFieldsOnlyAndNotFitted()
    {
        DecodingChoices cli{m_defaults, {QStringLiteral("no_repeat_ngram_size")},
                            std::vector<std::string>{}};
        cli.values.noRepeatNgramSize = 3;
        cli.values.beamSize = 99; // not named: not taken
        DecodingOptions o = decodingRequest(m_defaults, cli);
        QCOMPARE(o.noRepeatNgramSize, 3);
        QCOMPARE(o.beamSize, 6);
        QCOMPARE(o.lengthPenalty, 2.0f);

        cli.values.strategy = SearchStrategy::Greedy;
        cli.values.nBest = 2;
        cli.fields << QStringLiteral("strategy") << QStringLiteral("n_best");
        o = decodingRequest(m_defaults, cli);
        QCOMPARE(o.nBest, 2);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, o.validate());

        cli.fields << QStringLiteral("no_such_field");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decodingRequest(m_defaults, cli));
    }

    void termsComeFromTheSettingsUnlessGiven()
    {
        settings::keepTerms.setValue({QStringLiteral(" Glosa "), QStringLiteral(""),
                                      QStringLiteral("OS/2")});
        const DecodingOptions fromSettings = decodingRequest(m_defaults, everySetting({}));
        QCOMPARE(fromSettings.keepTerms, (std::vector<std::string>{"Glosa", "OS/2"}));

        DecodingChoices given = everySetting({});
        given.keepTerms = std::vector<std::string>{"Qt"};
        QCOMPARE(decodingRequest(m_defaults, given).keepTerms, std::vector<std::string>{"Qt"});
    }

    void aDocumentKeepsOneHypothesis()
    {
        DecodingChoices document; // the package's beam 6, one translation a sentence
        document.maxHypotheses = 1;
        DecodingOptions defaults = m_defaults;
        defaults.nBest = 4;
        const DecodingOptions o = decodingRequest(defaults, document);
        QCOMPARE(o.nBest, 1);
        QCOMPARE(o.beamSize, 6);
    }

private:
    QTemporaryDir m_dir;
    DecodingOptions m_defaults;
};

QTEST_GUILESS_MAIN(TestDecodingRequest)
#include "tst_decodingrequest.moc"
