// The model bar's state (ModelPickerPresenter) on the bundled models and the real plugins: the
// translation models grouped by direction, each direction's default first (the en→de and es→en
// models sat among the en→es ones), ⇄'s model by the one rule, and a pick remembered for its
// direction.
#include "app/core/appcontext.h"
#include "app/core/presenters/modelpickerpresenter.h"
#include "app/core/settings/settings.h"

#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace glosa;

namespace {
QStringList ids(const QList<ModelInfo> &models)
{
    QStringList list;
    for (const ModelInfo &info : models)
        list << info.id;
    return list;
}
} // namespace

class TestModelPickerPresenter : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateAppState(m_dir.path(), m_dir.path(),
                              QStringLiteral("tst_modelpickerpresenter"));
        m_context = std::make_unique<test::BundledContext>();
    }

    void groupsByDirectionWithTheDefaultFirst()
    {
        ModelPickerPresenter picker(*m_context);
        const QList<ModelPickerPresenter::Group> groups = picker.groups();
        QStringList directions;
        for (const auto &group : groups) {
            directions << group.source + QLatin1Char('-') + group.target;
            QVERIFY(!group.models.isEmpty());
            for (const ModelInfo &info : group.models) {
                QCOMPARE(info.sourceLanguage, group.source);
                QCOMPARE(info.targetLanguage, group.target);
                QCOMPARE(info.task, AppContext::kTranslation); // no captioner among them
            }
            // The direction's default first, and only there.
            QVERIFY2(picker.isDefault(group.models.first()), qPrintable(directions.last()));
            for (int i = 1; i < group.models.size(); ++i)
                QVERIFY(!picker.isDefault(group.models[i]));
        }
        QCOMPARE(directions, (QStringList{"en-de", "en-es", "es-en"}));
        QCOMPARE(groups[1].models.first().id, QStringLiteral("transformer-general-en-es"));
        QCOMPARE(groups[2].models.first().id, QStringLiteral("transformer-general-es-en"));
        QVERIFY(ids(groups[1].models).contains(QStringLiteral("rnn-additive-en-es")));
        // Each model once.
        int models = 0;
        for (const auto &group : groups)
            models += group.models.size();
        QCOMPARE(models, 9);
        // The entries that must say which one they are: several Transformers or RNNs a direction.
        QVERIFY(picker.sharesArchitecture(groups[1].models.first()));
        QVERIFY(!picker.sharesArchitecture(groups[0].models.first()));
    }

    void choosingAndTheReverseDirection()
    {
        ModelPickerPresenter picker(*m_context);
        QSignalSpy changed(&picker, &ModelPickerPresenter::choiceChanged);
        picker.choose(QStringLiteral("transformer-es-en"));
        QVERIFY(changed.count() >= 1);
        QCOMPARE(picker.current()->id, QStringLiteral("transformer-es-en"));
        QCOMPARE(settings::directionModel(QStringLiteral("es"), QStringLiteral("en")).value(),
                 QStringLiteral("transformer-es-en"));
        // ⇄ takes the reverse direction's default while the user has picked none there.
        QCOMPARE(picker.reverseModel()->id, QStringLiteral("transformer-general-en-es"));
        picker.choose(QStringLiteral("rnn-additive-en-es"));
        picker.choose(QStringLiteral("transformer-general-es-en"));
        QCOMPARE(picker.reverseModel()->id, QStringLiteral("rnn-additive-en-es"));
        // en→de has no way back.
        picker.choose(QStringLiteral("transformer-en-de"));
        QVERIFY(!picker.reverseModel());
        QVERIFY(picker.state() != ModelPickerPresenter::State::Unavailable);
    }

    // A model picked is Loading until its worker has loaded it, then Ready: said by choiceChanged.
    void theChosenModelLoads()
    {
        test::BundledContext context;
        ModelPickerPresenter picker(context);
        QSignalSpy changed(&picker, &ModelPickerPresenter::choiceChanged);
        picker.choose(QStringLiteral("rnn-attention-en-es"));
        QCOMPARE(picker.current()->id, QStringLiteral("rnn-attention-en-es"));
        while (picker.state() == ModelPickerPresenter::State::Loading)
            QVERIFY(changed.wait(60000));
        QCOMPARE(picker.state(), ModelPickerPresenter::State::Ready);
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<AppContext> m_context;
};

QTEST_MAIN(TestModelPickerPresenter)
#include "tst_modelpickerpresenter.moc"
