// An imported MarianMT model in the Translate view (real import, plugin, worker and widgets):
// the MarianMT fixture of ../shared, imported by the real import code into a models folder of
// the test's own, translates as transformers did (beam 4, the package's defaults), with an
// alignment row per target token, and a URL the model loses is named in the status line. Skips with
// a message when ../shared is absent.
#include "app/core/appcontext.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/models/modelimport.h"
#include "app/core/settings/settings.h"
#include "app/gui/views/translateview.h"
#include "tests/support/testutil.h"

#include <nlohmann/json.hpp>

#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

using namespace glosa;

class TestImportedModel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_state.isValid());
        // The do-not-translate list is a setting: the test's own, away from the user's.
        test::isolateAppState(m_state.path(), m_state.path(), QStringLiteral("tst_importedmodel"));
    }

    void translateView()
    {
        const QString fixture =
            QDir::cleanPath(test::sharedDataDir() + "/../fixtures/marian-tiny-en-es");
        if (!QFileInfo::exists(fixture + "/reference.json"))
            QSKIP(qPrintable(fixture + " is absent (it lives in ../shared)"));
        std::ifstream in((fixture + "/reference.json").toStdString());
        const nlohmann::json reference = nlohmann::json::parse(in);
        QTemporaryDir models;
        ModelImportRequest request;
        request.folder = fixture + "/safetensors";
        request.destinationRoot = models.path();
        request.float32 = true;
        const ModelImportResult imported = importModelFolder(request);
        QVERIFY2(imported.ok(), qPrintable(imported.error));

        std::unique_ptr<AppContext> context(
            new AppContext({QStringLiteral(GLOSA_BINARY_DIR "/plugins")}, {models.path()}));
        TranslateView view(*context);
        view.setLiveTranslate(false);
        view.resize(1280, 800);
        view.show();
        const auto info = context->catalog().find(imported.id);
        QVERIFY(info && info->isValid() && context->chooseModel(info->id));
        InferenceWorker *worker = context->workerFor(*info);
        QVERIFY(QTest::qWaitFor([&] { return worker->isModelLoaded(); }, 60000));

        // The package's defaults are transformers' generation config: beam 4.
        const nlohmann::json &station = reference["cases"][1];
        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(QString::fromStdString(station["source"].get<std::string>()));
        view.translateNow();
        QVERIFY(shown.wait(60000));
        const TranslationResult &result = view.result();
        QCOMPARE(result.options.beamSize, 4);
        QCOMPARE(view.targetEditor()->toPlainText().toStdString(),
                 station["beam4"]["text"].get<std::string>());
        // The alignment overlay's data: one row per target token over the source tokens.
        const TranslationHypothesis &best = *result.best();
        QCOMPARE(best.sourceCount, int(result.sourceTokens.size()));
        QCOMPARE(best.alignment.size(), qsizetype(best.tokens.size()) * best.sourceCount);
        for (int t = 0; t < best.tokens.size(); ++t) {
            float sum = 0.0f;
            for (int s = 0; s < best.sourceCount; ++s)
                sum += best.alignmentAt(t, s);
            QVERIFY2(std::abs(sum - 1.0f) < 1e-3f, qPrintable(QString::number(sum)));
        }
        QCOMPARE(result.missingSpans, QStringList());

        // A URL the tiny model cannot copy is named under the translation.
        const QString url = QStringLiteral("https://example.com/glosa.tar.gz");
        view.setSourceText(QStringLiteral("Download it from %1 now.").arg(url));
        view.translateNow();
        QVERIFY(shown.wait(60000));
        QCOMPARE(view.result().missingSpans, QStringList{url});
        auto *status = view.findChild<QLabel *>(QStringLiteral("translateStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(url), qPrintable(status->text()));
        QVERIFY2(!status->text().contains(QStringLiteral("do-not-translate")),
                 qPrintable(status->text()));

        // A term of Settings ▸ Do not translate is kept the same way, and the warning
        // names the list when one of its terms is lost (it named numbers, URLs and code only).
        settings::keepTerms.setValue(QStringList{QStringLiteral("Zorblatix")});
        view.setSourceText(QStringLiteral("Zorblatix is here."));
        view.translateNow();
        QVERIFY(shown.wait(60000));
        QCOMPARE(view.result().missingSpans, QStringList{QStringLiteral("Zorblatix")});
        QVERIFY2(status->text().contains(QStringLiteral("“Zorblatix”")) &&
                     status->text().contains(QStringLiteral("do-not-translate list")),
                 qPrintable(status->text()));
    }

private:
    QTemporaryDir m_state;
};

QTEST_MAIN(TestImportedModel)
#include "tst_importedmodel.moc"
