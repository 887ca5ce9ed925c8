// The first hour with the app (issue #31), on the bundled models, real plugins and real worker
// threads: ⇄ and the picker follow one rule (the direction's default, then the user's last choice
// for it); a model change never translates text in another language silently; one editing session
// leaves one history entry per model; the Caption view names its captioner; Documents uses the
// model's own decoding and stops warning about edits once they are exported.
//
// Which model is expected is read from the catalog (the packages' "default": true), never written
// down, and no translation is: the bundled models are retrained from time to time.
#include "app/core/appcontext.h"
#include "app/core/history/recorder.h"
#include "app/core/inferenceworker.h"
#include "app/core/settings.h"
#include "app/gui/captionview.h"
#include "app/gui/documentsview.h"
#include "app/gui/mainwindow.h"
#include "app/gui/translateview.h"

#include "testutil.h"

#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTest>

using namespace glosa;

namespace {

constexpr int kTimeoutMs = 120000;

const QString kSpanish = QStringLiteral(
    "El gobierno anunció el martes que subirá el salario mínimo un cuatro por ciento el próximo "
    "año, tras meses de negociaciones con los sindicatos y las asociaciones de empresarios.");
const QString kEnglish = QStringLiteral(
    "The government announced on Tuesday that it would raise the minimum wage next year.");

std::unique_ptr<AppContext> makeContext()
{
    return std::make_unique<AppContext>(
        QStringList{QStringLiteral(GLOSA_BINARY_DIR "/plugins")},
        QStringList{QStringLiteral(GLOSA_SOURCE_DIR "/resources/models")});
}

bool waitLoaded(AppContext &context, const QString &id)
{
    const auto info = context.catalog().find(id);
    return info && QTest::qWaitFor([&] { return context.workerFor(*info)->isModelLoaded(); },
                                   kTimeoutMs);
}

// An installed translation model from `source` to `target` other than `not`; nullopt if none.
std::optional<ModelInfo> another(const AppContext &context, const QString &source,
                                 const QString &target, const QString &not_)
{
    for (const ModelInfo &m : context.catalog().availableModels())
        if (m.task == AppContext::kTranslation && m.sourceLanguage == source &&
            m.targetLanguage == target && m.id != not_)
            return m;
    return std::nullopt;
}

QString defaultFor(const AppContext &context, const QString &source, const QString &target)
{
    const auto m = context.catalog().defaultModel(AppContext::kTranslation, source, target);
    return m ? m->id : QString();
}

} // namespace

class TestEveryday : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateAppState(m_dir.path(), m_dir.path(), QStringLiteral("tst_everyday"));
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }
    void init() { QSettings().clear(); }

    // Item 1: ⇄ took the first es→en model listed (the Tatoeba-only one).
    void swapFollowsTheDefaultThenTheUsersChoice()
    {
        auto context = makeContext();
        MainWindow window(*context);
        const QString enEs = defaultFor(*context, "en", "es");
        const QString esEn = defaultFor(*context, "es", "en");
        const auto otherEsEn = another(*context, "es", "en", esEn);
        QVERIFY(!enEs.isEmpty() && !esEn.isEmpty());
        if (!otherEsEn)
            QSKIP("only one es→en model is installed");
        QVERIFY(context->chooseModel(enEs));

        window.swapDirection();
        QCOMPARE(window.currentModelId(), esEn); // the direction's default
        // The user picks the other es→en model: that is their choice for es→en from now on.
        window.modelPicker()->setCurrentIndex(window.modelPicker()->findData(otherEsEn->id));
        QCOMPARE(context->choice(AppContext::kTranslation).model->id, otherEsEn->id);
        window.swapDirection();
        QCOMPARE(window.currentModelId(), enEs);
        window.swapDirection();
        QCOMPARE(window.currentModelId(), otherEsEn->id);
        // Remembered across a restart.
        auto later = makeContext();
        QCOMPARE(later->modelForDirection("es", "en")->id, otherEsEn->id);
        QCOMPARE(later->modelForDirection("en", "es")->id, enEs);
    }

    // Item 2: a model change re-translated a Spanish paragraph with the English → Spanish model.
    void aModelChangeDoesNotTranslateAnotherLanguage()
    {
        auto context = makeContext();
        const QString enEs = defaultFor(*context, "en", "es");
        const auto otherEnEs = another(*context, "en", "es", enEs);
        QVERIFY(otherEnEs);
        TranslateView view(*context);
        view.setLiveTranslate(false);
        view.resize(1280, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(context->chooseModel(enEs));
        QVERIFY(waitLoaded(*context, enEs));
        view.setSourceText(kSpanish);

        QSignalSpy shown(&view, &TranslateView::translationShown);
        QVERIFY(context->chooseModel(otherEnEs->id));
        QVERIFY(waitLoaded(*context, otherEnEs->id));
        QTRY_VERIFY_WITH_TIMEOUT(view.languageWarning()->isVisible(), 5000);
        QTest::qWait(1000);
        QCOMPARE(shown.count(), 0); // nothing translated, nothing recorded
        QVERIFY(view.targetEditor()->toPlainText().isEmpty());
        // It offers the right direction, by the same rule as ⇄.
        QVERIFY(view.switchDirectionButton()->isVisible());
        view.switchDirectionButton()->click();
        QCOMPARE(context->choice(AppContext::kTranslation).model->id,
                 context->modelForDirection("es", "en")->id);
        QVERIFY(shown.wait(kTimeoutMs));
        QCOMPARE(view.result().source, kSpanish);
        QVERIFY(!view.languageWarning()->isVisible());

        // Back to English → Spanish: warned again; "Translate anyway" does what it says.
        shown.clear();
        QVERIFY(context->chooseModel(enEs));
        QTRY_VERIFY_WITH_TIMEOUT(view.languageWarning()->isVisible(), 5000);
        QCOMPARE(shown.count(), 0);
        view.translateAnywayButton()->click();
        QVERIFY(shown.wait(kTimeoutMs));
        QVERIFY(!view.languageWarning()->isVisible());

        // English text with an English → Spanish model: translated on a model change, no warning.
        view.setSourceText(kEnglish);
        shown.clear();
        QVERIFY(context->chooseModel(otherEnEs->id));
        QVERIFY(shown.wait(kTimeoutMs));
        QCOMPARE(view.result().source, kEnglish);
        QVERIFY(!view.languageWarning()->isVisible());
    }

    // Item 3: typing on, a model switch and back, settings changed: four near-identical entries.
    void oneEditingSessionKeepsOneEntryPerModel()
    {
        auto context = makeContext();
        MainWindow window(*context);
        QVERIFY(context->history()->store());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString enEs = defaultFor(*context, "en", "es");
        const auto otherEnEs = another(*context, "en", "es", enEs);
        QVERIFY(otherEnEs);
        QVERIFY(context->chooseModel(enEs));
        QVERIFY(waitLoaded(*context, enEs));
        TranslateView *view = window.translateView();
        view->setLiveTranslate(false);
        const qint64 before = context->history()->store()->count();

        // Each step: a translation shown, then recorded (leaving the tab records at once).
        const auto step = [&](const std::function<void()> &change) {
            QSignalSpy shown(view, &TranslateView::translationShown);
            change();
            if (!shown.wait(kTimeoutMs))
                return false;
            window.tabs()->setCurrentIndex(MainWindow::HistoryTab);
            window.tabs()->setCurrentIndex(MainWindow::TranslateTab);
            return true;
        };
        QVERIFY(step([&] {
            view->setSourceText(QStringLiteral("The government announced a plan."));
            view->translateNow();
        }));
        QVERIFY(step([&] {
            view->setSourceText(QStringLiteral("The government announced a new plan on Monday."));
            view->translateNow();
        }));
        QVERIFY(step([&] { context->chooseModel(otherEnEs->id); }));
        QVERIFY(step([&] { context->chooseModel(enEs); }));
        QCOMPARE(context->history()->store()->count() - before, 2);
        // Another text is another session.
        QVERIFY(step([&] {
            view->setSourceText(QStringLiteral("Where is the station?"));
            view->translateNow();
        }));
        QCOMPARE(context->history()->store()->count() - before, 3);
        window.close();
    }

    // Item 4: the Caption view named only the translation model.
    void captionViewNamesItsCaptioner()
    {
        auto context = makeContext();
        MainWindow window(*context);
        const ModelChoice captioner = context->choice(AppContext::kCaptioning);
        QVERIFY(captioner.model);
        window.resize(1280, 800);
        window.show();
        window.tabs()->setCurrentIndex(MainWindow::CaptionTab);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        bool named = false;
        for (const QLabel *label : window.findChildren<QLabel *>())
            named = named || (label->isVisible() && label->text().contains(captioner.model->name));
        QVERIFY2(named, qPrintable(captioner.model->name));
        window.close();
    }

    // Item 5: Documents defaulted to greedy; the warning about edits came after an export too.
    void documentsUseTheModelsOwnDecodingAndExportedEditsAreSafe()
    {
        auto context = makeContext();
        const QString enEs = defaultFor(*context, "en", "es");
        QVERIFY(context->chooseModel(enEs));
        DocumentsView view(*context);
        view.resize(1280, 800);
        view.show();
        auto *quality = view.findChild<QComboBox *>(QStringLiteral("quality"));
        QVERIFY(quality);
        QCOMPARE(quality->currentData().toInt(), int(documents::DocumentWorker::Quality::Best));
        QVERIFY2(quality->currentText().contains(decodingSummary(
                     context->catalog().find(enEs)->decodingDefaults())),
                 qPrintable(quality->currentText()));

        QSignalSpy opened(&view, &DocumentsView::opened);
        view.openDocument(QStringLiteral(GLOSA_TEST_DATA_DIR "/documents/sample.md"));
        QVERIFY(opened.wait(10000));
        QTRY_VERIFY(!view.worker()->isBusy());
        QSignalSpy finished(&view, &DocumentsView::finished);
        view.translateDocument();
        QVERIFY(finished.wait(kTimeoutMs));
        QTRY_VERIFY(!view.worker()->isBusy());
        QPlainTextEdit *pane = view.targetPane();
        QTextCursor end(pane->document()->findBlockByNumber(0));
        end.movePosition(QTextCursor::EndOfBlock);
        pane->setTextCursor(end);
        pane->setFocus();
        QTest::keyClicks(pane, QStringLiteral(" (revisado)"));
        QVERIFY(view.hasUnexportedEdits());
        QTemporaryDir dir;
        QSignalSpy exported(&view, &DocumentsView::exported);
        view.exportTo(dir.filePath(QStringLiteral("out.md")));
        QVERIFY(exported.wait(30000));
        QVERIFY(!view.hasUnexportedEdits());
        QTest::keyClicks(pane, QStringLiteral("!"));
        QVERIFY(view.hasUnexportedEdits());
    }

    // Item 12: after Cancel, the translation of the text as it was passed for the new text's.
    void cancelMarksTheShownTranslationStale()
    {
        auto context = makeContext();
        const QString enEs = defaultFor(*context, "en", "es");
        TranslateView view(*context);
        view.setLiveTranslate(false);
        QVERIFY(context->chooseModel(enEs));
        QVERIFY(waitLoaded(*context, enEs));
        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(kEnglish);
        view.translateNow();
        QVERIFY(shown.wait(kTimeoutMs));
        const QString translation = view.targetEditor()->toPlainText();
        QVERIFY(!view.isTranslationStale());

        view.setSourceText(kEnglish + QStringLiteral(" The unions welcomed the decision."));
        view.translateNow();
        view.cancel();
        QVERIFY(view.isTranslationStale());
        QCOMPARE(view.targetEditor()->toPlainText(), translation);
        QVERIFY(view.targetEditor()->palette().color(QPalette::Text) !=
                view.sourceEditor()->palette().color(QPalette::Text));
        view.translateNow();
        QVERIFY(shown.wait(kTimeoutMs));
        QVERIFY(!view.isTranslationStale());
        QCOMPARE(view.targetEditor()->palette().color(QPalette::Text),
                 view.sourceEditor()->palette().color(QPalette::Text));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestEveryday)
#include "tst_everyday.moc"
