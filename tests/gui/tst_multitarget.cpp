// A multi-target MarianMT model in the GUI (real import, plugin, catalog, worker and widgets): the
// committed fixture tests/data/marian-multi (opus-mt-en-ROMANCE's layout) is in the model picker
// once for each target language, each direction finds it, and the Translate view translates into
// the chosen one: the text the engine gives for that language's code (checked against an
// independent reference in tests/parity/tst_parity_marianmulti.cpp).
#include "app/core/appcontext.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/models/modelimport.h"
#include "app/core/models/pluginregistry.h"
#include "app/gui/dialogs/modelsdialog.h"
#include "app/gui/mainwindow.h"
#include "app/gui/views/translateview.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"
#include "tests/support/testutil.h"

#include <QComboBox>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace glosa;

class TestMultiTarget : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_state, m_models;

    std::unique_ptr<AppContext> makeContext()
    {
        return std::make_unique<AppContext>(
            QStringList{QStringLiteral(GLOSA_BINARY_DIR "/plugins")}, QStringList{m_models.path()});
    }

    // What the engine itself gives for `id` (a variant: its language's code first).
    QString engineTranslation(const AppContext &context, const QString &id, const QString &text)
    {
        const auto info = context.catalog().find(id);
        if (!info)
            return {};
        QString error;
        const auto model = std::dynamic_pointer_cast<engine::TranslationModel>(
            ModelCatalog::load(*info, *context.plugins(), &error));
        if (!model)
            return error;
        engine::Translator translator(model);
        return QString::fromStdString(
            translator.translate(text.toStdString(), model->defaultDecodingOptions()).text);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_state.isValid() && m_models.isValid());
        test::isolateAppState(m_state.path(), m_state.path(), QStringLiteral("tst_multitarget"));
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        ModelImportRequest request{test::testDataDir() + QStringLiteral("/marian-multi"),
                                   m_models.path()};
        request.id = QStringLiteral("multi");
        request.float32 = true;
        const ModelImportResult imported = importModelFolder(request);
        QVERIFY2(imported.ok(), qPrintable(imported.error));
    }

    void pickerListsEachTarget()
    {
        auto context = makeContext();
        MainWindow window(*context);
        QComboBox *picker = window.modelPicker();
        for (const auto &[id, language] :
             {std::pair{"multi@fr", "French"}, std::pair{"multi@es", "Spanish"}}) {
            const int index = picker->findData(QString::fromLatin1(id));
            QVERIFY2(index >= 0, id);
            QVERIFY2(picker->itemText(index).contains(QLatin1String(language)),
                     qPrintable(picker->itemText(index)));
        }
        QCOMPARE(context->modelForDirection("en", "fr")->id, QStringLiteral("multi@fr"));
        QCOMPARE(context->modelForDirection("en", "es")->id, QStringLiteral("multi@es"));
    }

    // The catalog: one entry per target, "<id>@<language>", found by ISO 639-1 or 639-3.
    void catalogVariants()
    {
        ModelCatalog catalog;
        catalog.scan({m_models.path()});
        QCOMPARE(catalog.models().size(), 1);
        QStringList ids;
        for (const ModelInfo &info : catalog.availableModels())
            ids << info.id + QLatin1Char(':') + info.targetLanguage;
        QCOMPARE(ids, (QStringList{"multi@es:es", "multi@fr:fr"}));
        QCOMPARE(catalog.find(QStringLiteral("multi@fra"))->id, QStringLiteral("multi@fr"));
        QCOMPARE(catalog.find(QStringLiteral("multi"))->targetLanguage, QStringLiteral("es"));
        QVERIFY(!catalog.find(QStringLiteral("multi@de")));
        QCOMPARE(catalog.defaultModel(QStringLiteral("translation"), "en", "fr")->id,
                 QStringLiteral("multi@fr"));
    }

    // Help ▸ Models lists the package once, with all its target languages.
    void modelsDialogNamesEveryTarget()
    {
        ModelCatalog catalog;
        catalog.scan({m_models.path()});
        PluginRegistry plugins;
        ModelsDialog dialog(catalog, plugins);
        QTableWidget *table = dialog.modelTable();
        QCOMPARE(table->rowCount(), 1);
        QStringList cells;
        for (int c = 0; c < table->columnCount(); ++c)
            cells << (table->item(0, c) ? table->item(0, c)->text() : QString());
        QVERIFY2(cells.contains(QStringLiteral("English → Spanish, French")),
                 qPrintable(cells.join(" | ")));
    }

    void translatesIntoTheChosenLanguage()
    {
        auto context = makeContext();
        TranslateView view(*context);
        view.setLiveTranslate(false);
        const QString source = QStringLiteral("Hello world.");
        QStringList shownTexts;
        for (const QString &id : {QStringLiteral("multi@fr"), QStringLiteral("multi@es")}) {
            QVERIFY(context->chooseModel(id));
            InferenceWorker *worker = context->workerFor(*context->catalog().find(id));
            QVERIFY(QTest::qWaitFor([&] { return worker->isModelLoaded(); }, 60000));
            QSignalSpy shown(&view, &TranslateView::translationShown);
            view.setSourceText(source);
            view.translateNow();
            QVERIFY(shown.wait(60000));
            QCOMPARE(view.targetEditor()->toPlainText(), engineTranslation(*context, id, source));
            shownTexts << view.targetEditor()->toPlainText();
        }
        QVERIFY2(shownTexts[0] != shownTexts[1], qPrintable(shownTexts.join(" | ")));
    }
};

QTEST_MAIN(TestMultiTarget)
#include "tst_multitarget.moc"
