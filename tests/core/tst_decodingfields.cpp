// The decoding-option table (engine/decoding/decodingfields.h) and everything generated from it:
// every field survives model.json/history JSON, text and the GUI's settings map; validate()
// checks every row's range; settings and presets saved before the table keep loading; every
// setting is a glosa-cli option under its table name; decodingSummary() follows the rows.
#include "app/core/settings/decodingfieldinfo.h"
#include "app/core/settings/decodingmaps.h"
#include "tests/support/clirunner.h"
#include "engine/decoding/decodingfields.h"

#include <nlohmann/json.hpp>

#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace glosa;
using namespace glosa::engine;

namespace {

// A value for every field that is not its default and passes validate() together with the others.
const std::map<std::string, std::string> kNonDefault = {
    {"strategy", "beam"},
    {"beam_size", "5"},
    {"n_best", "2"},
    {"length_normalization", "average"},
    {"length_penalty", "0.6"},
    {"coverage_penalty", "0.2"},
    {"early_stopping", "eager"},
    {"max_length", "100"},
    {"max_length_ratio", "1.5"},
    {"min_length", "2"},
    {"suppress_tokens", "0,3"},
    {"target_prefix", "7"},
    {"target_prefix_sentence", "2"},
    {"keep_terms", "Glosa Pro\nOS/2"},
    {"truecase", "false"},
    {"no_repeat_ngram_size", "3"},
    {"repetition_penalty", "1.2"},
    {"ngram_penalty", "0.5"},
    {"ngram_penalty_size", "2"},
    {"temperature", "0.7"},
    {"top_k", "40"},
    {"top_p", "0.9"},
    {"min_p", "0.05"},
    {"seed", "18446744073709551615"},
    {"trace", "true"},
    {"trace_top_n", "5"},
};

DecodingOptions everyFieldSet()
{
    DecodingOptions options;
    for (const DecodingField &field : decodingFields())
        decodingFieldFromText(options, field, kNonDefault.at(field.name));
    return options;
}

std::string json(const DecodingOptions &options)
{
    return decodingOptionsToJson(options).dump();
}

} // namespace

class TestDecodingFields : public QObject
{
    Q_OBJECT
private slots:
    void namesAreUniqueAndFoundInEverySpelling()
    {
        std::set<std::string> names;
        for (const DecodingField &field : decodingFields()) {
            QVERIFY2(names.insert(field.name).second, field.name);
            if (field.formerName)
                QVERIFY2(names.insert(field.formerName).second, field.formerName);
            QCOMPARE(findDecodingField(field.name), &field);
            QCOMPARE(findDecodingField(field.optionName()), &field);
            if (field.formerName)
                QCOMPARE(findDecodingField(field.formerOptionName()), &field);
        }
        QCOMPARE(findDecodingField("no-repeat-ngram"), findDecodingField("no_repeat_ngram_size"));
        QVERIFY(!findDecodingField("beam"));
        // Every field has a test value here: a row added to the table without one fails.
        QCOMPARE(names.size() - 1, kNonDefault.size()); // minus the one former name
    }

    void everyFieldLeavesItsDefault()
    {
        const DecodingOptions defaults;
        const DecodingOptions set = everyFieldSet();
        for (const DecodingField &field : decodingFields())
            QVERIFY2(decodingFieldToText(set, field) != decodingFieldToText(defaults, field),
                     field.name);
        set.validate(100);
    }

    void everyFieldRoundTripsThroughJsonTextAndSettings()
    {
        const DecodingOptions options = everyFieldSet();
        QCOMPARE(json(decodingOptionsFromJson(decodingOptionsToJson(options))), json(options));
        QCOMPARE(json(decodingOptionsFromMap(decodingOptionsToMap(options))), json(options));
        for (const DecodingField &field : decodingFields()) {
            DecodingOptions back;
            decodingFieldFromText(back, field, decodingFieldToText(options, field));
            QCOMPARE(decodingFieldToText(back, field), kNonDefault.at(field.name));
            DecodingOptions fromJson;
            decodingFieldFromJson(fromJson, field, decodingFieldToJson(options, field));
            QCOMPARE(decodingFieldToText(fromJson, field), kNonDefault.at(field.name));
        }
        // Floats are written as their shortest decimal, in JSON as in text.
        const nlohmann::json j = decodingOptionsToJson(options);
        QCOMPARE(j["length_penalty"].dump(), std::string("0.6"));
        QCOMPARE(j["suppress_tokens"].dump(), std::string("[0,3]"));
    }

    void settingsMapsHoldEveryField()
    {
        // The settings used to leave out suppress_tokens, target_prefix and trace.
        const QVariantMap map = decodingOptionsToMap(everyFieldSet());
        for (const DecodingField &field : decodingFields())
            QVERIFY2(map.contains(QLatin1String(field.name)), field.name);
        // A preset is what a person sets: what the model or the view adds is not part of it.
        const QVariantMap key = decodingPresetKey(everyFieldSet());
        QVERIFY(key.contains(QStringLiteral("beam_size")));
        QVERIFY(!key.contains(QStringLiteral("suppress_tokens")));
        QVERIFY(!key.contains(QStringLiteral("trace")));
    }

    void settingsSavedBeforeTheTableStillLoad()
    {
        // Written as the app wrote them before: numbers as QVariant int and float, the seed as
        // text, "no_repeat_ngram" under its old name; through a real settings file.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("glosa.conf"));
        {
            QVariantMap old;
            old[QStringLiteral("strategy")] = QStringLiteral("beam");
            old[QStringLiteral("beam_size")] = 6;
            old[QStringLiteral("n_best")] = 2;
            old[QStringLiteral("length_normalization")] = QStringLiteral("average");
            old[QStringLiteral("length_penalty")] = 0.7f;
            old[QStringLiteral("max_length_ratio")] = 1.5f;
            old[QStringLiteral("no_repeat_ngram")] = 3;
            old[QStringLiteral("repetition_penalty")] = 1.2f;
            old[QStringLiteral("top_p")] = 0.95f;
            old[QStringLiteral("seed")] = QStringLiteral("42");
            QVariantMap presets;
            presets[QStringLiteral("Mine")] = old;
            QSettings settings(path, QSettings::IniFormat);
            settings.setValue(QStringLiteral("decoding"), old);
            settings.setValue(QStringLiteral("presets"), presets);
        }
        const QSettings settings(path, QSettings::IniFormat);
        for (const QVariantMap &map : {settings.value(QStringLiteral("decoding")).toMap(),
                                       settings.value(QStringLiteral("presets"))
                                           .toMap()
                                           .value(QStringLiteral("Mine"))
                                           .toMap()}) {
            const DecodingOptions o = decodingOptionsFromMap(map);
            QCOMPARE(o.strategy, SearchStrategy::Beam);
            QCOMPARE(o.beamSize, 6);
            QCOMPARE(o.nBest, 2);
            QCOMPARE(o.lengthNormalization, LengthNormalization::Average);
            QCOMPARE(o.lengthPenalty, 0.7f);
            QCOMPARE(o.maxLengthRatio, 1.5f);
            QCOMPARE(o.noRepeatNgramSize, 3);
            QCOMPARE(o.repetitionPenalty, 1.2f);
            QCOMPARE(o.topP, 0.95f);
            QCOMPARE(o.seed, std::uint64_t(42));
            QCOMPARE(o.temperature, DecodingOptions().temperature); // absent: the default
        }
        // A hand-edited value that does not parse keeps the default instead of stopping the app.
        QVariantMap edited{{QStringLiteral("beam_size"), QStringLiteral("wide")},
                           {QStringLiteral("top_k"), 7}};
        QCOMPARE(decodingOptionsFromMap(edited).beamSize, DecodingOptions().beamSize);
        QCOMPARE(decodingOptionsFromMap(edited).topK, 7);
    }

    void validateChecksEveryRowsRange()
    {
        int checked = 0;
        for (const DecodingField &field : decodingFields()) {
            std::vector<std::string> bad;
            const bool isFloat = std::holds_alternative<float DecodingOptions::*>(field.member);
            const bool isInt = std::holds_alternative<int DecodingOptions::*>(field.member);
            if (!isFloat && !isInt)
                continue;
            // Set through the member, not fromText: text refuses some of these before validate().
            auto set = [&](double value) {
                DecodingOptions o;
                if (isFloat)
                    o.*std::get<float DecodingOptions::*>(field.member) = float(value);
                else
                    o.*std::get<int DecodingOptions::*>(field.member) = int(value);
                return o;
            };
            std::vector<double> values{field.minExclusive ? field.min : field.min - 1};
            if (std::isfinite(field.max))
                values.push_back(field.max + 1);
            if (isFloat)
                values.push_back(std::numeric_limits<double>::quiet_NaN());
            for (double value : values) {
                try {
                    set(value).validate();
                    QFAIL(qPrintable(QStringLiteral("validate() accepted %1 = %2")
                                         .arg(QLatin1String(field.name))
                                         .arg(value)));
                } catch (const std::invalid_argument &error) {
                    QVERIFY2(QByteArray(error.what()).contains(field.name), error.what());
                }
                ++checked;
            }
            // The bounds themselves pass (where another field's rule allows it).
            if (!field.minExclusive && std::string(field.name) != "n_best" &&
                std::string(field.name) != "min_length")
                set(field.min).validate();
        }
        QVERIFY(checked >= 30);
    }

    void badTextSaysWhatWasExpected_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("int") << "beam_size"
                             << "x"
                             << "'x' is not an integer";
        QTest::newRow("int with junk") << "beam_size"
                                       << "4x"
                                       << "'4x' is not an integer";
        QTest::newRow("float") << "top_p"
                               << "lots"
                               << "'lots' is not a number";
        QTest::newRow("infinite") << "temperature"
                                  << "inf"
                                  << "'inf' is not a number";
        QTest::newRow("seed") << "seed"
                              << "-1"
                              << "'-1' is not a non-negative integer";
        QTest::newRow("enum") << "strategy"
                              << "best"
                              << "'best' is not greedy, beam or sample";
        QTest::newRow("ids") << "suppress_tokens"
                             << "1,x"
                             << "is not an array of token ids";
        QTest::newRow("bool") << "trace"
                              << "maybe"
                              << "'maybe' is not true or false";
    }
    void badTextSaysWhatWasExpected()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(QString, message);
        DecodingOptions o;
        try {
            decodingFieldFromText(o, *findDecodingField(name.toStdString()), text.toStdString());
            QFAIL("accepted");
        } catch (const std::invalid_argument &error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(message), error.what());
        }
    }

    void jsonWithAWrongTypeNamesTheKey()
    {
        try {
            decodingOptionsFromJson(nlohmann::json::parse(R"({"top_k": 2.5})"));
            QFAIL("accepted");
        } catch (const std::invalid_argument &error) {
            QVERIFY2(QByteArray(error.what())
                         .contains("\"decoding.top_k\" is 2.5, expected an "
                                   "integer"),
                     error.what());
        }
    }

    void summaryFollowsTheRows_data()
    {
        // Each case sets fields by their table names (text as on the command line).
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<QString>("summary");
        const QString greedy = QStringLiteral("strategy=greedy");
        const QString beam = QStringLiteral("strategy=beam");
        const QString sample = QStringLiteral("strategy=sample");
        QTest::newRow("greedy") << QStringList{greedy} << "greedy";
        // What acts in another strategy only is left out.
        QTest::newRow("greedy ignores beam and sampling options")
            << QStringList{greedy, "beam_size=7", "length_penalty=0.6", "top_k=40",
                           "temperature=0.7"}
            << "greedy";
        QTest::newRow("greedy, penalties")
            << QStringList{greedy, "no_repeat_ngram_size=3", "repetition_penalty=1.2"}
            << "greedy · no-repeat 3 · rep 1.2";
        QTest::newRow("beam") << QStringList{beam, "beam_size=4"} << "beam 4";
        QTest::newRow("beam, α") << QStringList{beam, "beam_size=4", "length_penalty=0.6"}
                                 << "beam 4 · α 0.6";
        // Every-strategy options follow the strategy's own, in table order (β beside α: it was
        // last before the table made the summary).
        QTest::newRow("beam, everything")
            << QStringList{beam, "beam_size=5", "length_penalty=0.6", "coverage_penalty=0.2",
                           "no_repeat_ngram_size=3", "repetition_penalty=1.2", "top_k=40"}
            << "beam 5 · α 0.6 · β 0.2 · no-repeat 3 · rep 1.2";
        QTest::newRow("sample") << QStringList{sample} << "sample";
        QTest::newRow("sample, T") << QStringList{sample, "temperature=0.7"} << "sample · T 0.7";
        // The sampling stages in the chain's order, after the strategy's name (before the table:
        // "top-k 40 · top-p 0.9 · T 0.7", the name left out when a stage truncated).
        QTest::newRow("sample, every stage")
            << QStringList{sample, "temperature=0.7", "top_k=40", "top_p=0.9", "min_p=0.05",
                           "beam_size=3", "no_repeat_ngram_size=2"}
            << "sample · T 0.7 · top-k 40 · top-p 0.9 · min-p 0.05 · no-repeat 2";
    }
    void summaryFollowsTheRows()
    {
        QFETCH(QStringList, settings);
        QFETCH(QString, summary);
        DecodingOptions options;
        for (const QString &setting : settings) {
            const QStringList pair = setting.split(QLatin1Char('='));
            const DecodingField *field = findDecodingField(pair.at(0).toStdString());
            QVERIFY2(field, qPrintable(pair.at(0)));
            decodingFieldFromText(options, *field, pair.at(1).toStdString());
        }
        options.validate();
        QCOMPARE(decodingSummary(options), summary);
    }

    void everySettingIsACommandLineOption()
    {
        const test::CliRun run =
            test::runGlosaCli({QStringLiteral("translate"), QStringLiteral("--help")}, {});
        QCOMPARE(run.exitCode, 0);
        for (const DecodingField &field : decodingFields()) {
            const QByteArray option = "--" + QByteArray::fromStdString(field.optionName());
            QCOMPARE(run.out.contains(option + ' ') || run.out.contains(option + ','),
                     isDecodingSetting(field));
            if (field.formerName)
                QVERIFY2(
                    run.out.contains("--" + QByteArray::fromStdString(field.formerOptionName())),
                    field.formerName);
        }
    }
};

QTEST_GUILESS_MAIN(TestDecodingFields)
#include "tst_decodingfields.moc"
