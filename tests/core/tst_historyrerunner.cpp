// HistoryRerunner, History's "Re-run with current settings" without widgets: the bundled
// English → Spanish Transformer and captioner (real plugins, real models, real worker threads), a
// real photograph and a real SQLite history in a temporary folder. The expected translation is
// computed here by the same model loaded separately. Every wait is on the rerunner's signals.
#include "app/core/appcontext.h"
#include "app/core/history/entrykinds.h"
#include "app/core/history/recorder.h"
#include "app/core/history/store.h"
#include "app/core/inference/translationrunner.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/presenters/historyrerunner.h"
#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace glosa;

namespace {
constexpr int kTimeoutMs = 60000;
const QString kCat = QStringLiteral(GLOSA_TEST_DATA_DIR "/images/chelsea.jpg");
} // namespace

class TestHistoryRerunner : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateAppState(m_dir.path(), m_dir.path(), QStringLiteral("tst_historyrerunner"));
    }

    void init()
    {
        QString error;
        m_context = test::bundledContextWithHistory(m_dir, &error);
        QVERIFY2(m_context, qPrintable(error));
        QVERIFY2(m_context->chooseModel(QStringLiteral("transformer-en-es")),
                 "resources/models/transformer-en-es is missing");
    }

    void cleanup() { m_context.reset(); }

    // A translation entry runs again with the settings given (greedy) and the model chosen now;
    // the new result is an entry of its own, and the same again is not recorded twice.
    void aTranslationRunsAgainWithTheGivenSettings()
    {
        HistoryEntry then;
        then.kind = HistoryKind::Translation;
        then.inputText = QStringLiteral("The children play in the garden.");
        engine::DecodingOptions greedy;
        greedy.strategy = engine::SearchStrategy::Greedy;
        greedy.trace = true; // a re-run asks for no trace

        HistoryRerunner rerunner(*m_context);
        QSignalSpy finished(&rerunner, &HistoryRerunner::finished);
        QSignalSpy recorded(&rerunner, &HistoryRerunner::entryRecorded);
        rerunner.rerun(then, engine::DecodingOptions(), greedy);
        QVERIFY(finished.wait(kTimeoutMs));
        const HistoryEntry now = finished.last().at(0).value<HistoryEntry>();
        QCOMPARE(now.kind, HistoryKind::Translation);
        QCOMPARE(now.inputText, then.inputText);
        QCOMPARE(now.modelId, QStringLiteral("transformer-en-es"));
        QCOMPARE(decodingOptionsFromSettings(now.settings).strategy,
                 engine::SearchStrategy::Greedy);
        const ModelInfo info = *m_context->catalog().find(now.modelId);
        QString error;
        const std::shared_ptr<engine::Model> model =
            ModelCatalog::load(info, *m_context->plugins(), &error);
        QVERIFY2(model, qPrintable(error));
        greedy.trace = false;
        QCOMPARE(now.bestOutput()->text,
                 runTranslation(model, then.inputText, greedy).best()->text);

        QCOMPARE(recorded.count(), 1);
        const qint64 id = recorded.last().at(0).toLongLong();
        QVERIFY(id > 0);
        QCOMPARE(m_context->history()->store()->entry(id)->bestOutput()->text,
                 now.bestOutput()->text);
        rerunner.rerun(then, engine::DecodingOptions(), greedy); // the same result again
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(recorded.last().at(0).toLongLong(), id);
        QCOMPARE(m_context->history()->store()->count(), 1);
    }

    void aCaptionRunsAgainUnlessItsImageIsGone()
    {
        HistoryEntry then;
        then.kind = HistoryKind::Caption;
        then.imagePath = m_dir.filePath(QStringLiteral("gone.jpg"));
        HistoryRerunner rerunner(*m_context);
        QSignalSpy failed(&rerunner, &HistoryRerunner::failed);
        rerunner.rerun(then, engine::DecodingOptions(), engine::DecodingOptions());
        QCOMPARE(failed.count(), 1); // at once: nothing is asked of the worker
        QCOMPARE(failed.last().at(0).value<HistoryRerunner::Failure>(),
                 HistoryRerunner::Failure::ImageGone);
        QCOMPARE(failed.last().at(1).toString(), then.imagePath);

        then.imagePath = kCat;
        QSignalSpy finished(&rerunner, &HistoryRerunner::finished);
        rerunner.rerun(then, engine::DecodingOptions(), engine::DecodingOptions());
        QVERIFY(finished.wait(kTimeoutMs));
        const HistoryEntry now = finished.last().at(0).value<HistoryEntry>();
        QCOMPARE(now.kind, HistoryKind::Caption);
        QCOMPARE(now.imagePath, kCat);
        QVERIFY(!now.bestOutput()->text.isEmpty());
        QCOMPARE(m_context->history()->store()->count(), 1);
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<AppContext> m_context;
};

QTEST_MAIN(TestHistoryRerunner)
#include "tst_historyrerunner.moc"
