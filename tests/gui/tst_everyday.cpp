// The first hour with the app, on the bundled models, real plugins and real worker
// threads: ⇄ and the picker follow one rule (the direction's default, then the user's last choice
// for it); a model change never translates text in another language silently; one editing session
// leaves one history entry per model; the Caption view names its captioner; Documents uses the
// model's own decoding and stops warning about edits once they are exported.
//
// Which model is expected is read from the catalog (the packages' "default": true), never written
// down, and no translation is: the bundled models are retrained from time to time.
#include "app/core/appcontext.h"
#include "app/core/history/recorder.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/settings/decodingmaps.h"
#include "app/core/settings/settings.h"
#include "app/gui/views/captionview.h"
#include "app/gui/views/compareview.h"
#include "app/gui/widgets/decodingpanel.h"
#include "app/gui/views/documentsview.h"
#include "app/gui/filedialogs.h"
#include "app/gui/recentfiles.h"
#include "app/gui/widgets/heatmapwidget.h"
#include "app/gui/mainwindow.h"
#include "app/gui/widgets/probabilitychart.h"
#include "app/gui/theme.h"
#include "app/gui/views/translateview.h"

#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTimer>

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
    return std::make_unique<test::BundledContext>();
}

bool waitLoaded(AppContext &context, const QString &id)
{
    const auto info = context.catalog().find(id);
    return info &&
           QTest::qWaitFor([&] { return context.workerFor(*info)->isModelLoaded(); }, kTimeoutMs);
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

// `view` shown at 1280 × 800 with live translation off and the model `id` chosen and loaded;
// false when it is not.
bool showWithModel(AppContext &context, TranslateView &view, const QString &id)
{
    view.setLiveTranslate(false);
    view.resize(1280, 800);
    view.show();
    return QTest::qWaitForWindowExposed(&view) && context.chooseModel(id) &&
           waitLoaded(context, id);
}

// `view` with live translation off translates kEnglish with the default English → Spanish
// model; false when the model does not load or nothing is shown.
bool translateEnglish(AppContext &context, TranslateView &view)
{
    const QString enEs = defaultFor(context, "en", "es");
    view.setLiveTranslate(false);
    if (!context.chooseModel(enEs) || !waitLoaded(context, enEs))
        return false;
    QSignalSpy shown(&view, &TranslateView::translationShown);
    view.setSourceText(kEnglish);
    view.translateNow();
    return shown.wait(kTimeoutMs);
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
    void init() { openSettings()->clear(); }

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
        QVERIFY(showWithModel(*context, view, enEs));
        view.setSourceText(kSpanish);

        QSignalSpy shown(&view, &TranslateView::translationShown);
        QVERIFY(context->chooseModel(otherEnEs->id));
        QVERIFY(waitLoaded(*context, otherEnEs->id));
        QTRY_VERIFY_WITH_TIMEOUT(view.languageWarning()->isVisible(), 5000);
        // The view decides while it handles the model's load: no waiting proves the negative.
        // A translation posted then keeps the worker busy until its result has been shown
        // (InferenceWorker reports a request's result before it stops being busy), so "not
        // busy and nothing shown" holds exactly when nothing was posted.
        QVERIFY(!context->workerFor(*otherEnEs)->isBusy());
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
        QVERIFY(!context->workerFor(*context->catalog().find(enEs))->isBusy());
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
        QVERIFY2(quality->currentText().contains(
                     decodingSummary(context->catalog().find(enEs)->decodingDefaults())),
                 qPrintable(quality->currentText()));

        QSignalSpy opened(&view, &DocumentsView::opened);
        view.openDocument(QStringLiteral(GLOSA_TEST_DATA_DIR "/documents/sample.md"));
        QVERIFY(opened.wait(10000));
        QTRY_VERIFY(!view.worker()->isBusy());
        QSignalSpy finished(&view, &DocumentsView::finished);
        view.translateDocument();
        QVERIFY(finished.wait(kTimeoutMs));
        QTRY_VERIFY(!view.worker()->isBusy());
        QTextEdit *pane = view.targetPane();
        QTextCursor end(view.targetBlock(0));
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
        TranslateView view(*context);
        QSignalSpy shown(&view, &TranslateView::translationShown);
        QVERIFY(translateEnglish(*context, view));
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

    // Item 12: a long text showed only "Translating…" and a bar that filled once per batch.
    void aLongTranslationShowsSentencesDoneAndTimeLeft()
    {
        auto context = makeContext();
        const QString enEs = defaultFor(*context, "en", "es");
        TranslateView view(*context);
        view.setLiveTranslate(false);
        QVERIFY(context->chooseModel(enEs));
        QVERIFY(waitLoaded(*context, enEs));
        QStringList text;
        for (int i = 0; i < 80; ++i)
            text << QStringLiteral("The committee met for the %1th time on Monday.").arg(i + 1);
        auto *status = view.findChild<QLabel *>(QStringLiteral("translateStatus"));
        QVERIFY(status);
        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(text.join(QLatin1Char(' ')));
        view.translateNow();
        QStringList seen;
        QVERIFY(QTest::qWaitFor(
            [&] {
                if (seen.isEmpty() || seen.last() != status->text())
                    seen << status->text();
                return shown.count() > 0;
            },
            kTimeoutMs));
        const QRegularExpression progress(QStringLiteral("(\\d+) / 80 sentences, about .* left"));
        QStringList matching = seen.filter(progress);
        QVERIFY2(!matching.isEmpty(), qPrintable(seen.join(QLatin1Char('|'))));
        QVERIFY(progress.match(matching.first()).captured(1).toInt() < 80);
    }

    // Item 14: File ▸ Open Recent, dialogs that start where the last one ended, and
    // File ▸ Save translation….
    void recentFilesReopenInTheirViewAndDialogsRememberTheFolder()
    {
        QTemporaryDir dir;
        const QString document = dir.filePath(QStringLiteral("notes.md"));
        QVERIFY(QFile::copy(QStringLiteral(GLOSA_TEST_DATA_DIR "/documents/sample.md"), document));
        rememberOpened(OpenedAs::Document, document);
        QCOMPARE(startFolder(FileKind::Documents), QFileInfo(document).absolutePath());
        QCOMPARE(recentFiles().value(0).path, QFileInfo(document).absoluteFilePath());

        auto context = makeContext();
        MainWindow window(*context);
        QMenu *recent = nullptr;
        for (QMenu *menu : window.findChildren<QMenu *>())
            if (menu->title() == QStringLiteral("Open &Recent"))
                recent = menu;
        QVERIFY(recent);
        emit recent->aboutToShow();
        QAction *entry = nullptr;
        for (QAction *a : recent->actions())
            if (a->text() == QDir::toNativeSeparators(QFileInfo(document).absoluteFilePath()))
                entry = a;
        QVERIFY(entry);
        QSignalSpy opened(window.documentsView(), &DocumentsView::opened);
        entry->trigger();
        QCOMPARE(window.tabs()->currentIndex(), int(MainWindow::DocumentsTab));
        QVERIFY(opened.wait(10000));
    }

    void saveTranslationWritesWhatThePaneShows()
    {
        auto context = makeContext();
        TranslateView view(*context);
        QVERIFY(translateEnglish(*context, view));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.txt"));
        QString error;
        QVERIFY2(view.saveTranslation(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()), view.targetEditor()->toPlainText() + '\n');
        QVERIFY(
            !view.saveTranslation(dir.filePath(QStringLiteral("no/such/folder/x.txt")), &error));
        QVERIFY(error.contains(QStringLiteral("x.txt")));
    }

    // Item 14: Settings ▸ Do not translate. The terms go into every translation the app makes,
    // copied as they are: the general RNN reads the band "The Rolling Stones" as "Las piedras"
    // and translates the city.
    void doNotTranslateListKeepsTerms()
    {
        auto context = makeContext();
        MainWindow window(*context);
        auto *action = window.findChild<QAction *>(QStringLiteral("keepTermsAction"));
        QVERIFY(action);
        bool filled = false;
        QTimer::singleShot(0, &window, [&] {
            auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
            auto *terms = dialog ? dialog->findChild<QPlainTextEdit *>("keepTerms") : nullptr;
            if (!terms)
                return;
            terms->setPlainText(QStringLiteral("Rolling Stones\n\n  Mexico City \n"));
            filled = true;
            dialog->accept();
        });
        action->trigger();
        QVERIFY(filled);
        QCOMPARE(settings::keepTerms.value(), QStringList({"Rolling Stones", "Mexico City"}));
        TranslateView *view = window.translateView();
        QCOMPARE(view->decodingPanel()->options().keepTerms,
                 (std::vector<std::string>{"Rolling Stones", "Mexico City"}));
        view->setLiveTranslate(false);
        QVERIFY(context->chooseModel(QStringLiteral("rnn-general-en-es")));
        QVERIFY(waitLoaded(*context, QStringLiteral("rnn-general-en-es")));
        QSignalSpy shown(view, &TranslateView::translationShown);
        view->setSourceText(QStringLiteral("The Rolling Stones played in Mexico City."));
        view->translateNow();
        QVERIFY(shown.wait(kTimeoutMs));
        const QString target = view->targetEditor()->toPlainText();
        QVERIFY2(target.contains(QLatin1String("Rolling Stones")) &&
                     target.contains(QLatin1String("Mexico City")),
                 qPrintable(target));
    }

    // Item 14: Settings ▸ Appearance, for desktops whose dark theme Qt does not see.
    void appearanceLightDarkAndBack()
    {
        const QPalette system = QApplication::palette();
        theme::applyAppearance(QStringLiteral("dark"));
        QVERIFY(theme::isDark(QApplication::palette()));
        auto context = makeContext();
        TranslateView view(*context);
        QVERIFY(theme::isDark(view.sourceEditor()->palette()));
        theme::applyAppearance(QStringLiteral("light"));
        QVERIFY(!theme::isDark(QApplication::palette()));
        theme::applyAppearance(QStringLiteral("system"));
        QCOMPARE(QApplication::palette(), system);
    }

    // Item 10: the attention panel was about 100 px tall under an empty candidates card that took
    // half the window; the splitters' positions were forgotten.
    void theHeatmapGetsTheRoomAndSplittersAreRemembered()
    {
        auto context = makeContext();
        QByteArray attentionState;
        {
            MainWindow window(*context);
            window.resize(1280, 800);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            TranslateView *view = window.translateView();
            QVERIFY(translateEnglish(*context, *view));
            QCoreApplication::processEvents();
            QWidget *heatmap = view->heatmap()->parentWidget()->parentWidget(); // its scroll area
            QVERIFY2(heatmap->height() > 2 * view->candidatesPanel()->height(),
                     qPrintable(QStringLiteral("heatmap %1 px, empty candidates %2 px")
                                    .arg(heatmap->height())
                                    .arg(view->candidatesPanel()->height())));
            // What the empty candidates card gives up goes to the heatmap, not to blank space
            // under the card (the README's screenshot had 200 blank pixels there).
            QSplitter *attention = view->attentionSplitter();
            const QWidget *heatCard = attention->widget(0);
            const int used = view->candidatesPanel()->geometry().bottom() - heatCard->y();
            QVERIFY2(used >= attention->height() - 2,
                     qPrintable(QStringLiteral("the attention panel and the candidates use %1 of "
                                               "%2 px (heatmap card %3, candidates %4)")
                                    .arg(used)
                                    .arg(attention->height())
                                    .arg(heatCard->height())
                                    .arg(view->candidatesPanel()->height())));
            // A word clicked: the chart gets room to show its bars.
            view->showCandidates(1);
            QTRY_VERIFY(view->candidatesChart()->barCount() > 0);
            QCoreApplication::processEvents();
            QVERIFY(view->candidatesPanel()->height() >=
                    view->candidatesChart()->sizeHint().height());
            view->attentionSplitter()->setSizes({300, 200});
            attentionState = view->attentionSplitter()->saveState();
            window.close(); // saves the settings
        }
        MainWindow again(*context);
        QCOMPARE(again.translateView()->attentionSplitter()->saveState(), attentionState);
    }

    // Item 11: Compare did not say where or why two columns differ, nor that a setting changed
    // nothing.
    void compareSaysWhereColumnsPartAndWhenASettingChangedNothing()
    {
        auto context = makeContext();
        MainWindow window(*context);
        const QString enEs = defaultFor(*context, "en", "es");
        QVERIFY(context->chooseModel(enEs));
        QVERIFY(waitLoaded(*context, enEs));
        CompareView *compare = window.compareView();
        compare->setColumnCount(3);
        // Column 2: beam 5; column 3: the same with a no-repeat 5-gram block, which a short
        // sentence without repeats never triggers.
        engine::DecodingOptions beam;
        beam.strategy = engine::SearchStrategy::Beam;
        beam.beamSize = 5;
        engine::DecodingOptions blocked = beam;
        blocked.noRepeatNgramSize = 5;
        engine::DecodingOptions greedy;
        compare->column(0)->setOptions(greedy);
        compare->column(1)->setOptions(beam);
        compare->column(2)->setOptions(blocked);
        compare->input()->setPlainText(kEnglish);
        QSignalSpy shown(compare, &CompareView::comparisonShown);
        compare->compare();
        QVERIFY(shown.wait(kTimeoutMs));
        const CompareColumn *third = compare->column(2);
        if (third->result().best()->text == compare->column(1)->result().best()->text) {
            QCOMPARE(third->sameAsColumn(), 1);
            QVERIFY2(third->findChildren<QLabel *>().size() > 0, "no labels");
            bool said = false;
            for (const QLabel *label : third->findChildren<QLabel *>())
                said = said || label->text().contains(QStringLiteral("Same output as column 2"));
            QVERIFY(said);
        }
        // Wherever two columns differ, the first difference is named with both probabilities.
        for (int i = 0; i < 3; ++i) {
            const CompareColumn *c = compare->column(i);
            const CompareColumn::Divergence &d = c->divergence();
            const bool differs = c->result().best()->text !=
                                 compare->column(i == 0 ? 1 : i - 1)->result().best()->text;
            QCOMPARE(d.token >= 0, differs);
            if (differs) {
                const TranslationHypothesis &mine = *c->result().best();
                const TranslationHypothesis &theirs =
                    *compare->column(i == 0 ? 1 : i - 1)->result().best();
                // The first step where the two chose differently, the same before it.
                for (int t = 0; t < d.token; ++t)
                    QCOMPARE(mine.tokens[t].id, theirs.tokens[t].id);
                QVERIFY(d.token >= theirs.tokens.size() ||
                        mine.tokens[d.token].id != theirs.tokens[d.token].id);
                // The word of that step as the text shows it, not the model's piece of it.
                const auto wordAround = [](const QString &text, int at) {
                    int begin = at, end = at;
                    while (begin > 0 && !text.at(begin - 1).isSpace())
                        --begin;
                    while (end < text.size() && !text.at(end).isSpace())
                        ++end;
                    return text.mid(begin, end - begin);
                };
                QCOMPARE(d.mine, wordAround(mine.text, mine.tokens[d.token].begin));
                QVERIFY(d.myProbability > 0.0f && d.myProbability <= 1.0f);
            }
        }
    }

    // Item 10: hovering a word of a long translation lit up source words out of sight.
    void hoveringATargetWordScrollsItsSourceIntoView()
    {
        auto context = makeContext();
        const QString enEs = defaultFor(*context, "en", "es");
        TranslateView view(*context);
        QVERIFY(showWithModel(*context, view, enEs));
        QStringList lines;
        for (int i = 0; i < 60; ++i)
            lines << QStringLiteral("Line %1 says that the weather is fine.").arg(i + 1);
        lines << QStringLiteral("The elephant crossed the river.");
        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(lines.join(QLatin1Char('\n')));
        view.translateNow();
        QVERIFY(shown.wait(kTimeoutMs));
        QPlainTextEdit *source = view.sourceEditor();
        source->verticalScrollBar()->setValue(0);
        const TranslationHypothesis *h = view.shownHypothesis();
        QVERIFY(h && !h->alignment.isEmpty());
        const int last = int(h->tokens.size()) - 2; // a word of the last line, not the end mark
        emit view.heatmap()->cellHovered(last, 0);
        QVERIFY(source->verticalScrollBar()->value() > 0);
        bool seen = false;
        for (const QTextEdit::ExtraSelection &s : source->extraSelections())
            seen = seen || source->viewport()->rect().contains(source->cursorRect(s.cursor));
        QVERIFY2(seen, "no lit-up source word is in sight");
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestEveryday)
#include "tst_everyday.moc"
