// The decoding panel is generated from the decoding-option tables (the engine's,
// engine/decoding/decodingfields.cpp, and the app's, app/core/settings/decodingfieldinfo.cpp):
// every setting has a control, found by its label, whose range is the engine row's, whose choices
// and tooltip are the app row's, shown in the strategies the engine row says it applies to; the
// jargon is in "Advanced", folded at start. The panel used to spell its own ranges (no-repeat
// n-gram 0-8 against the table's 64, the seed cut to an int) and its own lists of which controls
// each strategy shows.
#include "app/gui/widgets/decodingpanel.h"
#include "app/core/settings/decodingfieldinfo.h"
#include "engine/decoding/decodingfields.h"

#include "tests/support/testutil.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>
#include <limits>
#include <type_traits>

using namespace glosa;
using engine::DecodingField;

namespace {

QString panelText(const char *text)
{
    return QCoreApplication::translate("glosa::DecodingPanel", text);
}

const DecodingFieldInfo &infoOf(const DecodingField &field)
{
    return *findDecodingFieldInfo(field);
}

// The control the table's label names (its buddy), null when the panel has no such label.
QWidget *controlLabelled(DecodingPanel &panel, const DecodingField &field)
{
    for (QLabel *label : panel.findChildren<QLabel *>())
        if (label->text() == infoOf(field).translatedLabel())
            return label->buddy();
    return nullptr;
}

} // namespace

class TestDecodingPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateAppState(m_dir.path(), m_dir.path(), QStringLiteral("tst_decodingpanel"));
    }

    void everySettingHasTheTablesControl()
    {
        DecodingPanel panel;
        int checked = 0;
        for (const DecodingField &field : engine::decodingFields()) {
            if (!isDecodingSetting(field))
                continue;
            const DecodingFieldInfo &info = infoOf(field);
            QVERIFY2(info.label && *info.label, field.name);
            QWidget *control = controlLabelled(panel, field);
            QVERIFY2(control, field.name);
            // One sentence that says what the option does, on the control.
            QCOMPARE(control->toolTip(), info.translatedTip());
            QVERIFY2(control->toolTip().size() > 20 && control->toolTip().endsWith(u'.'),
                     field.name);
            std::visit(
                [&](auto member) {
                    using T = std::remove_cvref_t<decltype(engine::DecodingOptions().*member)>;
                    if constexpr (std::is_enum_v<T>) {
                        auto *box = qobject_cast<QComboBox *>(control);
                        QVERIFY2(box, field.name);
                        QCOMPARE(std::size_t(box->count()), info.choices.size());
                        for (int i = 0; i < box->count(); ++i)
                            QCOMPARE(box->itemText(i), info.translatedChoice(std::size_t(i)));
                    } else if constexpr (std::is_same_v<T, float>) {
                        auto *box = qobject_cast<QDoubleSpinBox *>(control);
                        QVERIFY2(box, field.name);
                        const double step = std::pow(10.0, -box->decimals());
                        QCOMPARE(box->minimum(), field.minExclusive ? field.min + step : field.min);
                        QCOMPARE(box->maximum(), info.controlMaximum());
                        QVERIFY2(std::isfinite(box->maximum()) && box->maximum() > field.min,
                                 field.name);
                    } else if constexpr (std::is_same_v<T, int>) {
                        auto *box = qobject_cast<QSpinBox *>(control);
                        QVERIFY2(box, field.name);
                        QCOMPARE(box->minimum(), int(field.min));
                        QCOMPARE(box->maximum(), int(field.max));
                    }
                },
                field.member);
            ++checked;
        }
        QVERIFY(checked >= 19);

        // Every setting's extreme values come back as they were set: the seed's whole 64 bits,
        // the largest beam, no-repeat n-gram and top-k the engine accepts.
        engine::DecodingOptions extreme;
        extreme.strategy = engine::SearchStrategy::Sample;
        extreme.seed = std::numeric_limits<std::uint64_t>::max();
        extreme.noRepeatNgramSize = engine::findDecodingField("no_repeat_ngram_size")->max;
        extreme.topK = int(engine::findDecodingField("top_k")->max);
        extreme.lengthPenalty = 8; // above the control's usual end: shown, not cut
        panel.setOptions(extreme);
        QCOMPARE(panel.options().seed, extreme.seed);
        QCOMPARE(panel.options().noRepeatNgramSize, extreme.noRepeatNgramSize);
        QCOMPARE(panel.options().topK, extreme.topK);
        QCOMPARE(panel.options().lengthPenalty, 8.0f);
    }

    void advancedIsFoldedAtStart()
    {
        DecodingPanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        engine::DecodingOptions beam; // beam search shows every control but sampling's
        beam.strategy = engine::SearchStrategy::Beam;
        beam.nBest = 2;
        panel.setOptions(beam);
        QToolButton *advanced = nullptr;
        for (QToolButton *button : panel.findChildren<QToolButton *>())
            if (button->text() == panelText("Advanced"))
                advanced = button;
        QVERIFY(advanced);
        QVERIFY(!advanced->toolTip().isEmpty());
        const QStringList sampling = {"temperature", "top_k", "top_p", "min_p", "seed"};
        const auto shown = [&](DecodingGroup group) {
            QStringList names;
            for (const DecodingField &field : engine::decodingFields())
                if (isDecodingSetting(field) && infoOf(field).group == group &&
                    !sampling.contains(QLatin1String(field.name)) &&
                    controlLabelled(panel, field)->isVisible())
                    names << QLatin1String(field.name);
            return names;
        };
        // In table order: what a new user meets.
        QCOMPARE(shown(DecodingGroup::Search),
                 QStringList({"strategy", "beam_size", "n_best", "no_repeat_ngram_size"}));
        QVERIFY2(shown(DecodingGroup::Advanced).isEmpty(),
                 qPrintable(shown(DecodingGroup::Advanced).join(u' ')));
        advanced->click();
        QVERIFY(shown(DecodingGroup::Advanced).size() >= 10);
        advanced->click();
        QVERIFY(shown(DecodingGroup::Advanced).isEmpty());
    }

    // Each strategy shows the controls of the fields its search reads (the engine row's
    // strategies) and hides the others: beam size only for beam search, the sampling stages and
    // the seed only for sampling, n-best for both.
    void aStrategyShowsTheFieldsItReads_data()
    {
        QTest::addColumn<int>("strategy");
        QTest::addColumn<QStringList>("hidden");
        const QStringList sampling = {"temperature", "top_k", "top_p", "min_p", "seed"};
        QTest::newRow("greedy") << int(engine::SearchStrategy::Greedy)
                                << QStringList{"beam_size", "n_best", "early_stopping"} + sampling;
        QTest::newRow("beam") << int(engine::SearchStrategy::Beam) << sampling;
        QTest::newRow("sample") << int(engine::SearchStrategy::Sample)
                                << QStringList{"beam_size", "early_stopping"};
    }
    void aStrategyShowsTheFieldsItReads()
    {
        QFETCH(int, strategy);
        QFETCH(QStringList, hidden); // at least these
        DecodingPanel panel;
        panel.setAdvancedOpen(true);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        engine::DecodingOptions options;
        options.strategy = engine::SearchStrategy(strategy);
        options.nBest = options.strategy == engine::SearchStrategy::Greedy ? 1 : 2;
        panel.setOptions(options);
        QStringList notShown;
        for (const DecodingField &field : engine::decodingFields()) {
            if (!isDecodingSetting(field))
                continue;
            QWidget *control = controlLabelled(panel, field);
            QVERIFY2(control, field.name);
            QCOMPARE(control->isVisible(), field.appliesTo(options.strategy));
            if (!control->isVisible())
                notShown << QLatin1String(field.name);
        }
        // What the engine's rows say, as a person would put it (a new sampling stage joins
        // without a line here).
        for (const QString &name : std::as_const(hidden))
            QVERIFY2(notShown.contains(name), qPrintable(name));
        QVERIFY(!notShown.contains(QLatin1String("strategy")));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestDecodingPanel)
#include "tst_decodingpanel.moc"
