// The language guard in the Documents and Compare views, driven as a user would with the bundled
// models: an English document with Spanish → English selected was translated word by word
// through the Spanish model ("A trip to the bee"). Now each view warns as the Translate view does,
// names the language, offers the direction the text asks for and to go on anyway, and
// translates nothing until one is chosen.
#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"

#include "app/core/appcontext.h"
#include "app/core/models/pluginregistry.h"
#include "app/gui/dialogs/evaluatedialog.h"
#include "app/gui/views/compareview.h"
#include "app/gui/views/documentsview.h"
#include "app/gui/widgets/languagewarningbar.h"

#include <QFile>
#include <QFileInfo>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace glosa;

class TestLanguageWarnings : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_context = std::make_unique<test::BundledContext>();
        const auto enEs = m_context->modelForDirection("en", "es");
        const auto esEn = m_context->modelForDirection("es", "en");
        if (!enEs || !esEn)
            QSKIP("the bundled English ↔ Spanish models are not exported");
        if (!m_context->plugins()->pluginForArchitecture(enEs->architecture))
            QSKIP("the transformer plugin is not built");
        m_enEs = enEs->id;
        m_esEn = esEn->id;
        QVERIFY(m_dir.isValid());
        glosa::test::isolateAppState(m_dir.filePath(QStringLiteral("settings")),
                                     m_dir.filePath(QStringLiteral("data")),
                                     QStringLiteral("tst_languagewarnings"));
        m_english = write(QStringLiteral("trip.txt"),
                          "A trip to the beach.\n\nWe found a beautiful house near the sea, and "
                          "we stayed there for a week with our friends.\n");
        m_spanish = write(QStringLiteral("viaje.txt"),
                          "Un viaje a la playa.\n\nEncontramos una casa muy bonita cerca del "
                          "mar, y nos quedamos allí una semana con nuestros amigos.\n");
    }

    // The reproduction: an English document with Spanish → English chosen. Warned; the offered
    // direction translates it with the English → Spanish model.
    void anEnglishDocumentWithSpanishToEnglishIsCaught()
    {
        DocumentsView view(*m_context);
        if (!open(view, m_esEn, m_english))
            return;
        QSignalSpy finished(&view, &DocumentsView::finished);
        view.translateDocument();
        QVERIFY(view.languageWarning()->isVisible());
        QVERIFY(!view.worker()->isBusy()); // nothing was handed to the worker
        QCOMPARE(view.translatedCount(), 0);
        const QLabel *note = view.languageWarning()->findChild<QLabel *>();
        QVERIFY2(note->text().contains(QStringLiteral("looks like English")),
                 qPrintable(note->text()));
        QVERIFY(view.switchDirectionButton()->isVisible());
        QCOMPARE(view.switchDirectionButton()->text(), QStringLiteral("Translate English → Spanish"));

        view.switchDirectionButton()->click();
        QCOMPARE(m_context->choice(AppContext::kTranslation).model->id, m_enEs);
        QVERIFY(finished.wait(120000));
        QVERIFY(!view.languageWarning()->isVisible());
        QVERIFY2(view.targetPane()->toPlainText().contains(QStringLiteral("playa")),
                 qPrintable(view.targetPane()->toPlainText()));
    }

    // "Translate anyway" translates with the model chosen; a document in the model's language is
    // translated without a warning.
    void translateAnywayAndTheRightLanguage()
    {
        DocumentsView view(*m_context);
        if (!open(view, m_enEs, m_spanish))
            return;
        QSignalSpy finished(&view, &DocumentsView::finished);
        view.translateDocument();
        QVERIFY(view.languageWarning()->isVisible());
        QVERIFY(!view.worker()->isBusy());
        view.translateAnywayButton()->click();
        QVERIFY(finished.wait(120000));
        QCOMPARE(m_context->choice(AppContext::kTranslation).model->id, m_enEs);
        QVERIFY(!view.languageWarning()->isVisible());
        QCOMPARE(view.translatedCount(), 2);

        if (!open(view, m_enEs, m_english))
            return;
        view.translateDocument();
        QVERIFY(!view.languageWarning()->isVisible());
        QVERIFY(finished.wait(120000));
        QCOMPARE(view.translatedCount(), 2);
    }

    // Compare: Spanish with English → Spanish chosen is not compared; the offered direction
    // compares it; English with Spanish → English, "Compare anyway" does.
    void compareWarnsAndOffersTheDirection()
    {
        m_context->chooseModel(m_enEs);
        CompareView view(*m_context);
        view.resize(1200, 800);
        view.show();
        QSignalSpy shown(&view, &CompareView::comparisonShown);
        view.input()->setPlainText(QStringLiteral("¿Dónde está la estación de tren?"));
        view.compare();
        LanguageWarningBar *bar = view.languageWarning();
        QVERIFY(bar->isVisible());
        QCOMPARE(bar->guessedLanguage(), QStringLiteral("es"));
        QVERIFY(!view.column(0)->hasResult());
        QCOMPARE(bar->switchButton()->text(), QStringLiteral("Compare Spanish → English"));
        bar->switchButton()->click();
        QCOMPARE(m_context->choice(AppContext::kTranslation).model->id, m_esEn);
        QVERIFY(shown.wait(120000));
        QVERIFY(!bar->isVisible());

        view.input()->setPlainText(QStringLiteral("We are going to the beach tomorrow."));
        view.compare();
        QVERIFY(bar->isVisible());
        QCOMPARE(bar->guessedLanguage(), QStringLiteral("en"));
        bar->goOnButton()->click();
        QVERIFY(shown.wait(120000));
        QCOMPARE(m_context->choice(AppContext::kTranslation).model->id, m_esEn);
    }

    // Evaluate: a test set in Spanish is not scored with English → Spanish models (the scores
    // would only measure the garbling); the status says why.
    void evaluateRefusesATestSetInAnotherLanguage()
    {
        const QString tsv = write(QStringLiteral("set.tsv"),
                                  "¿Dónde está la estación?\tWhere is the station?\n"
                                  "Los niños juegan en el jardín detrás de la casa vieja.\t"
                                  "The children play in the garden behind the old house.\n"
                                  "Tom está leyendo un libro muy interesante.\tTom is reading a "
                                  "very interesting book.\n");
        EvaluateDialog dialog(*m_context);
        dialog.show();
        const int index = dialog.directionPicker()->findData(QStringLiteral("en → es"));
        QVERIFY(index >= 0);
        dialog.directionPicker()->setCurrentIndex(index);
        for (int i = 0; i < dialog.modelList()->count(); ++i)
            dialog.modelList()->item(i)->setCheckState(
                dialog.modelList()->item(i)->text() == m_enEs ? Qt::Checked : Qt::Unchecked);
        dialog.useTestSetFiles(tsv);
        QTest::mouseClick(dialog.evaluateButton(), Qt::LeftButton);
        QVERIFY(!dialog.worker()->isBusy());
        QVERIFY2(dialog.statusLabel()->text().contains(QStringLiteral("look like Spanish")),
                 qPrintable(dialog.statusLabel()->text()));
    }

private:
    QString write(const QString &name, const QByteArray &text)
    {
        QFile file(m_dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            return QString();
        return file.fileName();
    }

    bool open(DocumentsView &view, const QString &model, const QString &path)
    {
        view.resize(1000, 600);
        view.show();
        m_context->chooseModel(model);
        QSignalSpy opened(&view, &DocumentsView::opened);
        view.openDocument(path);
        if (!opened.wait(10000) ||
            !QTest::qWaitFor([&] { return !view.worker()->isBusy(); }, 10000)) {
            QTest::qFail(qPrintable(QStringLiteral("%1 did not open").arg(path)), __FILE__,
                         __LINE__);
            return false;
        }
        return true;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<AppContext> m_context;
    QString m_enEs, m_esEn, m_english, m_spanish;
};

QTEST_MAIN(TestLanguageWarnings)
#include "tst_languagewarnings.moc"
