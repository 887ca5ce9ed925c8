// The app's rows for the engine's decoding fields (app/core/settings/decodingfieldinfo.cpp): one
// per engine field, in the engine's order, and none without an engine field, so that a field added
// to the engine is not silently left without its label, tooltip or --help line; a setting has
// every text the panel and the CLI show; the summary names a field only where it applies.
#include "app/core/settings/decodingfieldinfo.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <set>
#include <string>

using namespace glosa;
using engine::DecodingField;

namespace {

// How many values an enum field has: its names count up from 0 until "?".
template <typename Name> std::size_t enumCount(Name name)
{
    std::size_t n = 0;
    while (std::string(name(n)) != "?")
        ++n;
    return n;
}

std::size_t choiceCount(const DecodingField &field)
{
    using O = engine::DecodingOptions;
    const auto &m = field.member;
    if (std::holds_alternative<engine::SearchStrategy O::*>(m))
        return enumCount([](std::size_t i) {
            return engine::searchStrategyName(static_cast<engine::SearchStrategy>(i));
        });
    if (std::holds_alternative<engine::LengthNormalization O::*>(m))
        return enumCount([](std::size_t i) {
            return engine::lengthNormalizationName(static_cast<engine::LengthNormalization>(i));
        });
    if (std::holds_alternative<engine::EarlyStopping O::*>(m))
        return enumCount([](std::size_t i) {
            return engine::earlyStoppingName(static_cast<engine::EarlyStopping>(i));
        });
    return 0;
}

} // namespace

class TestDecodingFieldInfo : public QObject
{
    Q_OBJECT
private slots:
    void oneRowPerEngineFieldInItsOrder()
    {
        const auto fields = engine::decodingFields();
        const auto infos = decodingFieldInfos();
        std::set<std::string> names;
        for (const DecodingFieldInfo &info : infos) {
            QVERIFY2(names.insert(info.name).second, info.name);
            QVERIFY2(engine::findDecodingField(info.name), info.name);
        }
        QCOMPARE(infos.size(), fields.size());
        for (std::size_t i = 0; i < fields.size(); ++i) {
            QCOMPARE(infos[i].name, fields[i].name);
            QCOMPARE(findDecodingFieldInfo(fields[i]), &infos[i]);
            QCOMPARE(&infos[i].field(), &fields[i]);
            QVERIFY2(std::strlen(infos[i].help) > 5, infos[i].name);
        }
    }

    void aSettingHasEveryText()
    {
        int settings = 0;
        std::set<std::string> labels;
        for (const DecodingFieldInfo &info : decodingFieldInfos()) {
            const DecodingField &field = info.field();
            QCOMPARE(isDecodingSetting(field), info.isSetting());
            if (!info.isSetting()) {
                QVERIFY2(!info.label && !info.tip && info.choices.empty(), info.name);
                continue;
            }
            ++settings;
            QVERIFY2(info.label && std::strchr(info.label, '&'), info.name);
            QVERIFY2(labels.insert(info.label).second, info.label);
            QVERIFY2(info.tip && std::string(info.tip).back() == '.', info.name);
            QVERIFY2(std::string(info.help).size() > 5, info.name);
            QCOMPARE(info.choices.size(), choiceCount(field));
            QVERIFY2(info.step > 0, info.name);
            // A number's control ends somewhere a person can reach, unbounded or not.
            if (std::holds_alternative<float engine::DecodingOptions::*>(field.member) ||
                std::holds_alternative<int engine::DecodingOptions::*>(field.member))
                QVERIFY2(std::isfinite(info.controlMaximum()) &&
                             info.controlMaximum() > field.min,
                         info.name);
            QCOMPARE(info.translatedLabel(), QString::fromUtf8(info.label));
        }
        QVERIFY(settings >= 19);
    }

    // The summary names a field only in strategies whose search reads it, and only a field with a
    // value that turns it off can be left out for being off.
    void theSummaryFollowsTheEnginesStrategies()
    {
        for (const DecodingFieldInfo &info : decodingFieldInfos()) {
            const DecodingField &field = info.field();
            QVERIFY2((info.summaryStrategySet() & ~field.strategies) == 0, info.name);
            QVERIFY2(info.summaryStrategySet() != 0, info.name);
            if (info.summary)
                QVERIFY2(std::strstr(info.summary, "%1"), info.name);
            if (!info.summaryChoices.empty())
                QCOMPARE(info.summaryChoices.size(), choiceCount(field));
        }
        QCOMPARE(findDecodingFieldInfo(*engine::findDecodingField("length_penalty"))
                     ->summaryStrategySet(),
                 engine::strategyBit(engine::SearchStrategy::Beam));
        QCOMPARE(findDecodingFieldInfo(*engine::findDecodingField("top_k"))->summaryStrategySet(),
                 engine::strategyBit(engine::SearchStrategy::Sample));
    }
};

QTEST_GUILESS_MAIN(TestDecodingFieldInfo)
#include "tst_decodingfieldinfo.moc"
