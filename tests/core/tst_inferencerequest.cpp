// InferenceWorker's request handles, on the toy translation plugin (tests/plugins/toytranslator):
// each request reports to its own InferenceRequest only. A superseded request reports cancelled
// and nothing else, a failure reaches the failing request's handle alone, and a handle dropped
// by its caller hears nothing while the worker goes on.
#include "app/core/inference/inferenceworker.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace glosa;

namespace {

// Every report a request can make, counted.
struct Reports
{
    explicit Reports(InferenceRequest *request)
        : columns(request, &InferenceRequest::columnReady),
          translated(request, &InferenceRequest::translated),
          captioned(request, &InferenceRequest::captioned),
          failed(request, &InferenceRequest::failed),
          cancelled(request, &InferenceRequest::cancelled)
    {
    }
    qsizetype endings() const
    {
        return translated.count() + captioned.count() + failed.count() + cancelled.count();
    }

    QSignalSpy columns, translated, captioned, failed, cancelled;
};

} // namespace

class TestInferenceRequest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_plugins->scan({QStringLiteral(GLOSA_TEST_PLUGIN_DIR "/translators")});
        m_catalog.scan({QStringLiteral(GLOSA_TEST_DATA_DIR "/toy-en-es")});
        const std::optional<ModelInfo> toy = m_catalog.find(QStringLiteral("toy-en-es"));
        QVERIFY(toy && toy->isValid());
        m_info = *toy;
    }

    void aSupersededRequestReportsCancelledToItsOwnHandleOnly()
    {
        InferenceWorker worker;
        QVERIFY(load(worker));
        const std::unique_ptr<InferenceRequest> first =
            worker.translate(QStringLiteral("the cat is big"), {options(), options()});
        Reports firstReports(first.get());
        const std::unique_ptr<InferenceRequest> second =
            worker.translate(QStringLiteral("the dog"), {options()});
        Reports secondReports(second.get());

        QVERIFY(secondReports.translated.wait(10000));
        QCOMPARE(secondReports.columns.count(), 1);
        QCOMPARE(secondReports.endings(), 1);
        QCOMPARE(firstReports.cancelled.count(), 1);
        QCOMPARE(firstReports.endings(), 1);
        QCOMPARE(firstReports.columns.count(), 0);

        // cancel() supersedes the newest request too.
        const std::unique_ptr<InferenceRequest> third =
            worker.translate(QStringLiteral("the cat"), {options()});
        Reports thirdReports(third.get());
        worker.cancel();
        QVERIFY(thirdReports.cancelled.wait(10000));
        QTRY_VERIFY(!worker.isBusy());
        // Nothing more comes to any of them: the worker reports in order, so whatever it still
        // had for them arrives before the result of a request made after them.
        const std::unique_ptr<InferenceRequest> barrier =
            worker.translate(QStringLiteral("the bird"), {options()});
        Reports barrierReports(barrier.get());
        QVERIFY(barrierReports.translated.wait(10000));
        QCOMPARE(thirdReports.endings(), 1);
        QCOMPARE(thirdReports.columns.count(), 0);
        QCOMPARE(secondReports.endings(), 1);
        QCOMPARE(firstReports.endings(), 1);
    }

    void aFailureReachesOnlyItsHandle()
    {
        InferenceWorker worker, other;
        QVERIFY(load(worker));
        QVERIFY(load(other));
        const std::unique_ptr<InferenceRequest> done =
            worker.translate(QStringLiteral("the cat"), {options()});
        Reports doneReports(done.get());
        QVERIFY(doneReports.translated.wait(10000));

        const std::unique_ptr<InferenceRequest> elsewhere =
            other.translate(QStringLiteral("the cat is big"), {options()});
        Reports elsewhereReports(elsewhere.get());
        // A translation model cannot caption: the request fails on the worker thread.
        const std::unique_ptr<InferenceRequest> failing =
            worker.caption(QStringLiteral(GLOSA_TEST_DATA_DIR "/images/chelsea.jpg"), options());
        Reports failingReports(failing.get());
        QVERIFY(failingReports.failed.wait(10000));
        QVERIFY(!failingReports.failed.first().first().toString().isEmpty());
        QCOMPARE(failingReports.endings(), 1);

        QTRY_COMPARE_WITH_TIMEOUT(elsewhereReports.translated.count(), 1, 10000);
        QCOMPARE(elsewhereReports.endings(), 1);
        QCOMPARE(doneReports.endings(), 1);
    }

    void aDroppedHandleHearsNothing()
    {
        InferenceWorker worker;
        QVERIFY(load(worker));
        std::unique_ptr<InferenceRequest> dropped =
            worker.translate(QStringLiteral("the cat is big"), {options()});
        dropped.reset(); // the caller lost interest: its reports have nowhere to go
        QTRY_VERIFY_WITH_TIMEOUT(!worker.isBusy(), 10000);
        const std::unique_ptr<InferenceRequest> next =
            worker.translate(QStringLiteral("the cat"), {options()});
        Reports nextReports(next.get());
        QVERIFY(nextReports.translated.wait(10000));
        QCOMPARE(nextReports.endings(), 1);
    }

private:
    bool load(InferenceWorker &worker)
    {
        QSignalSpy loaded(&worker, &InferenceWorker::modelLoaded);
        worker.loadModel(m_info, ModelLoader(m_plugins));
        return loaded.wait(10000);
    }
    engine::DecodingOptions options() const { return m_info.decodingDefaults(); }

    std::shared_ptr<PluginRegistry> m_plugins = std::make_shared<PluginRegistry>();
    ModelCatalog m_catalog;
    ModelInfo m_info;
};

QTEST_GUILESS_MAIN(TestInferenceRequest)
#include "tst_inferencerequest.moc"
