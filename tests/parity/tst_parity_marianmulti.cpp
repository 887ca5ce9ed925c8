// A multi-target MarianMT model (the layout of opus-mt-en-ROMANCE: a ">>xxx<<" target-language
// token first in every source), imported by the real import code and run through the real
// translation path, against an independent reference: tests/data/marian-multi (random weights;
// reference.json written by the plain numpy MarianMT and MarianTokenizer rules of its
// make_fixture.py). For each target language the source ids (the code one token, then the
// pieces, then </s>), the greedy output and its teacher-forced log-probabilities (within 1e-3)
// must be the reference's, whether the language is chosen on the model (ISO 639-1 or 639-3) or
// typed as ">>fra<<" before the text.
#include "engine/import/marianimport.h"
#include "engine/package.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"
#include "plugins/transformer/transformerdecoder.h"
#include "tests/support/testutil.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace glosa;
using nlohmann::json;

namespace {

QString fixtureDir()
{
    return test::testDataDir() + QStringLiteral("/marian-multi");
}

std::vector<std::int32_t> ints(const json &array)
{
    return array.get<std::vector<std::int32_t>>();
}

} // namespace

class TestParityMarianMulti : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_models;
    json m_reference;
    json m_manifest;
    std::shared_ptr<engine::TranslationModel> m_model;
    transformer::TransformerDecoder *m_decoder = nullptr;

    // The translation's source ids and its best hypothesis as HF writes it (<pad> first, </s>
    // last when it ended).
    std::pair<std::vector<std::int32_t>, std::vector<std::int32_t>>
    translate(const std::string &text)
    {
        engine::Translator translator(m_model);
        engine::DecodingOptions options;
        options.maxLength = m_reference["max_new_tokens"];
        const auto result = translator.translate(text, options);
        if (result.segments.size() != 1 || result.segments[0].hypotheses.empty())
            return {};
        std::vector<std::int32_t> source;
        for (const engine::Token &token : result.segments[0].sourceTokens)
            source.push_back(token.id);
        const engine::Hypothesis &best = result.segments[0].hypotheses[0];
        std::vector<std::int32_t> target{m_reference["pad_token_id"].get<std::int32_t>()};
        target.insert(target.end(), best.tokens.begin(), best.tokens.end());
        if (best.endedWithEos)
            target.push_back(m_reference["eos_token_id"]);
        return {source, target};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_models.isValid());
        std::ifstream in((fixtureDir() + "/reference.json").toStdString());
        m_reference = json::parse(in);
        QCOMPARE(m_reference["cases"].size(), std::size_t(8));
        engine::MarianImportOptions options;
        options.int8 = false;
        const auto done = engine::importMarian(fixtureDir().toStdString(),
                                               m_models.path().toStdString(), options);
        std::ifstream manifest(done.folder + "/model.json");
        m_manifest = json::parse(manifest);
        const auto package = engine::ModelPackage::load(done.folder);
        auto decoder = std::make_unique<transformer::TransformerDecoder>(package);
        m_decoder = decoder.get();
        m_model = std::make_shared<engine::TranslationModel>(package, std::move(decoder));
    }

    // The codes come from vocab.json (>>fra<< >>spa<< >>por<<), kept to the card's target
    // languages (fra spa), keyed by ISO 639-1.
    void importRecordsTheLanguageCodes()
    {
        QCOMPARE(m_manifest["target_languages"], json({{"es", ">>spa<<"}, {"fr", ">>fra<<"}}));
        QCOMPARE(m_manifest["languages"]["source"], json("en"));
        QCOMPARE(m_manifest["languages"]["target"], json("es"));
        QCOMPARE(m_model->targetLanguage(), std::string("es"));
        QCOMPARE(m_model->targetLanguageCode(), std::string(">>spa<<"));
        QCOMPARE(m_model->targetLanguageCodes().size(), std::size_t(2));
    }

    void parity_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("chosenAs");
        for (int i = 0; i < int(m_reference["cases"].size()); ++i) {
            const json &c = m_reference["cases"][i];
            const std::string language = c["target_language"];
            const std::string name = c["source"].get<std::string>() + " → " + language;
            QTest::newRow((name + ", ISO 639-1").c_str()) << i << QString::fromStdString(language);
            QTest::newRow((name + ", ISO 639-3").c_str())
                << i << QString::fromStdString(language == "fr" ? "fra" : "spa");
        }
    }
    void parity()
    {
        QFETCH(int, index);
        QFETCH(QString, chosenAs);
        const json &c = m_reference["cases"][index];
        const std::string source = c["source"];
        m_model->setTargetLanguage(chosenAs.toStdString());
        QCOMPARE(m_model->targetLanguageCode(), c["code"].get<std::string>());
        const auto [ids, greedy] = translate(source);
        QCOMPARE(ids, ints(c["input_ids"]));
        QCOMPARE(greedy, ints(c["greedy"]["ids"]));

        // Typed before the text, with the model set to the other language: the same.
        m_model->setTargetLanguage(c["target_language"] == "fr" ? "es" : "fr");
        const auto [typedIds, typedGreedy] = translate(c["code"].get<std::string>() + " " + source);
        QCOMPARE(typedIds, ints(c["input_ids"]));
        QCOMPARE(typedGreedy, ints(c["greedy"]["ids"]));

        // Teacher-forced log-probabilities along the reference's output.
        const std::vector<std::int32_t> reference = ints(c["greedy"]["ids"]);
        const std::vector<float> forced = c["greedy"]["token_logprobs"];
        auto state = m_decoder->encode({ints(c["input_ids"])});
        engine::Tensor last({1}, engine::DType::I32), logProbs, attention;
        double worst = 0;
        for (std::size_t t = 0; t + 1 < reference.size(); ++t) {
            last.data<std::int32_t>()[0] = reference[t];
            m_decoder->step(*state, last, logProbs, attention);
            worst = std::max(
                worst, double(std::fabs(logProbs.data<float>()[reference[t + 1]] - forced[t])));
        }
        QVERIFY2(worst <= 1e-3, qPrintable(QString::number(worst)));
    }

    // The language codes differ: the same sentence comes out differently.
    void targetLanguageChangesTheOutput()
    {
        m_model->setTargetLanguage("fr");
        const auto french = translate("Hello world.");
        m_model->setTargetLanguage("es");
        const auto spanish = translate("Hello world.");
        QVERIFY(french.first != spanish.first);
        QVERIFY(french.second != spanish.second);
    }

    void unknownTargetLanguageIsRefused()
    {
        try {
            m_model->setTargetLanguage("de");
            QFAIL("no error for a language the model lacks");
        } catch (const std::invalid_argument &error) {
            QVERIFY2(QString(error.what()).contains("translates into es fr"), error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestParityMarianMulti)
#include "tst_parity_marianmulti.moc"
