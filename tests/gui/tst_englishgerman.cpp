// Another language pair in every view: the bundled English →
// German Transformer (resources/models/transformer-en-de, trained on Tatoeba en–de by
// tools/train_transformer.py) chosen in the real main window's model picker, through the real
// plugin and workers, offscreen: the Translate view with its alignment overlay, attention kinds
// and head grid, and the spans it names when the model loses them; Compare with the beam tree, a
// decode steered from a tree node, and the candidates chart; Documents on a .docx; History
// recording and restoring a German translation; Evaluate on a TSV whose columns say "de en";
// the German names of the direction in the picker, on ⇄ and over the translation in three UI
// languages; and a German user's first start.
#include "app/core/appcontext.h"
#include "app/core/documents/formats.h"
#include "app/core/evaluation/evaluationworker.h"
#include "app/core/evaluation/testsets.h"
#include "app/core/history/recorder.h"
#include "app/core/history/store.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/settings/settings.h"
#include "app/gui/widgets/beamtreewidget.h"
#include "app/gui/views/compareview.h"
#include "app/gui/views/documentsview.h"
#include "app/gui/dialogs/evaluatedialog.h"
#include "app/gui/widgets/headgridwidget.h"
#include "app/gui/widgets/heatmapwidget.h"
#include "app/gui/views/historymodel.h"
#include "app/gui/views/historyview.h"
#include "app/gui/mainwindow.h"
#include "app/gui/widgets/probabilitychart.h"
#include "app/gui/views/translateview.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include "tests/support/testutil.h"
#include "tests/support/testwindow.h"
#include "tests/support/traceutil.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

#include <cmath>
#include <memory>

using namespace glosa;

namespace {

constexpr int kTimeoutMs = 120000; // the shared 2-core machine also trains and compiles
const QString kModel = QStringLiteral("transformer-en-de");

QToolButton *swapButton(const QWidget &window)
{
    for (QToolButton *button : window.findChildren<QToolButton *>())
        if (button->text() == QStringLiteral("⇄"))
            return button;
    return nullptr;
}

QString pickerText(const QWidget &window, const QString &id)
{
    auto *picker = window.findChild<QComboBox *>(QStringLiteral("modelPicker"));
    const int index = picker ? picker->findData(id) : -1;
    return index < 0 ? QString() : picker->itemText(index);
}

} // namespace

class TestEnglishGerman : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_state.isValid());
        glosa::test::isolateAppState(m_state.filePath(QStringLiteral("settings")),
                                     m_state.filePath(QStringLiteral("data")),
                                     QStringLiteral("tst_englishgerman"));
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        m_window = std::make_unique<test::Window>();
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        // The user picks English → German in the model bar, as anyone would.
        auto *picker = m_window->findChild<QComboBox *>(QStringLiteral("modelPicker"));
        QVERIFY(picker);
        const int index = picker->findData(kModel);
        QVERIFY2(index >= 0, "resources/models/transformer-en-de is not in the model picker");
        picker->setCurrentIndex(index);
        QCOMPARE(m_window->currentModelId(), kModel);
        const auto info = m_window->context().catalog().find(kModel);
        QVERIFY(info);
        QCOMPARE(info->sourceLanguage, QStringLiteral("en"));
        QCOMPARE(info->targetLanguage, QStringLiteral("de"));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->context().workerFor(*info)->isModelLoaded(), kTimeoutMs);
        m_window->translateView()->setLiveTranslate(false);
    }

    // The direction's names in the picker and on ⇄ (no German → English model: disabled, and
    // the tooltip says so), in English, Spanish and Korean.
    void directionIsNamedInEveryUiLanguage_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("german");
        QTest::addColumn<QString>("entry");
        QTest::newRow("en") << "en"
                            << "German"
                            << "English → German · Transformer";
        QTest::newRow("es") << "es"
                            << "Alemán"
                            << "Inglés → Alemán · Transformer";
        QTest::newRow("ko") << "ko"
                            << "독일어"
                            << "영어 → 독일어 · 트랜스포머";
    }
    void directionIsNamedInEveryUiLanguage()
    {
        QFETCH(QString, language);
        QFETCH(QString, german);
        QFETCH(QString, entry);
        // installTranslator() posts LanguageChange to each window; the event loop delivers it.
        QVERIFY(MainWindow::setUiLanguage(language));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
        const QString shown = pickerText(*m_window, kModel);
        QToolButton *swap = swapButton(*m_window);
        const QString tip = swap ? swap->toolTip() : QString();
        // The Translate view's title over the translation.
        bool titled = false;
        for (const QLabel *label : m_window->translateView()->findChildren<QLabel *>())
            titled = titled || label->text() == german;
        MainWindow::setUiLanguage(QStringLiteral("en"));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
        QCOMPARE(shown, entry);
        QVERIFY(swap && !swap->isEnabled());
        QVERIFY2(tip.contains(german), qPrintable(tip));
        QVERIFY(titled);
    }
    void swapSaysNoReverseModel()
    {
        QToolButton *swap = swapButton(*m_window);
        QVERIFY(swap);
        QVERIFY(!swap->isEnabled());
        QCOMPARE(swap->toolTip(), QStringLiteral("No German → English model is installed"));
    }

    void translateViewWithAlignmentAndAttention()
    {
        m_window->tabs()->setCurrentIndex(MainWindow::TranslateTab);
        TranslateView *view = m_window->translateView();
        const TranslationResult result =
            translate(QStringLiteral("The girl is very tired. I know that she doesn't sleep."));
        QVERIFY(!result.isEmpty());
        const QString german = view->targetEditor()->toPlainText();
        const auto [de, en] = glosa::test::germanAndEnglishWords(german);
        QVERIFY2(de >= 4 && en <= 1, qPrintable(german));
        // The joint vocabulary keeps umlauts and ß as pieces: nothing comes out unknown.
        QVERIFY2(!german.contains(QStringLiteral("⁇")), qPrintable(german));
        QVERIFY2(german.contains(QRegularExpression(QStringLiteral("[äöüßÄÖÜ]"))),
                 qPrintable(german));

        // The alignment: one row per German token over the English tokens, each summing to 1.
        const TranslationHypothesis *h = view->shownHypothesis();
        QVERIFY(h);
        QCOMPARE(h->sourceCount, int(result.sourceTokens.size()));
        QCOMPARE(h->alignment.size(), qsizetype(h->tokens.size()) * h->sourceCount);
        for (int t = 0; t < h->tokens.size(); ++t) {
            float sum = 0.0f;
            for (int s = 0; s < h->sourceCount; ++s)
                sum += h->alignmentAt(t, s);
            QVERIFY2(std::abs(sum - 1.0f) < 1e-3f, qPrintable(QString::number(sum)));
        }
        // Hovering a German word highlights the English words its alignment row weighs most.
        int token = -1;
        for (int i = 0; i < h->tokens.size() && token < 0; ++i)
            if (h->tokens[i].end - h->tokens[i].begin >= 4)
                token = i;
        QVERIFY(token >= 0);
        QPlainTextEdit *target = view->targetEditor();
        QTextCursor cursor(target->document());
        cursor.setPosition((h->tokens[token].begin + h->tokens[token].end) / 2);
        QTest::mouseMove(target->viewport(), target->cursorRect(cursor).center());
        QTRY_VERIFY(!view->sourceEditor()->extraSelections().isEmpty());
        QVector<float> row;
        QList<bool> empty;
        for (int j = 0; j < h->sourceCount; ++j) {
            row << h->alignmentAt(token, j);
            empty << (result.sourceTokens[j].begin == result.sourceTokens[j].end);
        }
        QList<int> highlighted;
        for (const QTextEdit::ExtraSelection &s : view->sourceEditor()->extraSelections()) {
            const int j = s.format.property(TranslateView::kTokenProperty).toInt();
            QCOMPARE(s.format.property(TranslateView::kWeightProperty).toFloat(), row[j]);
            highlighted << j;
        }
        std::sort(highlighted.begin(), highlighted.end());
        QList<int> expected = TranslateView::overlayWords(row, empty);
        std::sort(expected.begin(), expected.end());
        QCOMPARE(highlighted, expected);

        // Encoder self-attention: translated again with every map, an English × English heatmap.
        QComboBox *kinds = view->attentionKindSelector();
        QCOMPARE(kinds->count(), 3);
        QSignalSpy shown(view, &TranslateView::translationShown);
        kinds->setCurrentIndex(kinds->findData(int(engine::AttentionKind::EncoderSelf)));
        emit kinds->activated(kinds->currentIndex());
        QVERIFY(shown.wait(kTimeoutMs));
        const int S = int(view->result().sourceTokens.size());
        QCOMPARE(view->heatmap()->rows(), S);
        QCOMPARE(view->heatmap()->columns(), S);
        // The head grid: every head of the layer.
        view->allHeadsToggle()->setChecked(true);
        QTRY_VERIFY(view->headGrid()->isVisible());
        const auto info = m_window->context().catalog().find(kModel);
        QCOMPARE(view->headGrid()->heads(), info->manifest["hyperparameters"]["heads"].toInt());
        QCOMPARE(view->headGrid()->rows(), S);
        view->allHeadsToggle()->setChecked(false);
        kinds->setCurrentIndex(kinds->findData(int(engine::AttentionKind::Cross)));
        emit kinds->activated(kinds->currentIndex());
        QCOMPARE(view->heatmap()->columns(), S);
    }

    // A Tatoeba model has no placeholder pieces: the spans are read as text, and each one the
    // translation lacks is named, exactly those.
    void translateViewNamesLostSpans()
    {
        const QStringList spans{QStringLiteral("anna.berger@example.com"),
                                QStringLiteral("https://example.org/plan.pdf")};
        const TranslationResult result =
            translate(QStringLiteral("Write to %1 and read %2 first.").arg(spans[0], spans[1]));
        QVERIFY(!result.isEmpty());
        const QString german = m_window->translateView()->targetEditor()->toPlainText();
        QStringList lost;
        for (const QString &span : spans)
            if (!german.contains(span))
                lost << span;
        QCOMPARE(result.missingSpans, lost);
        auto *status =
            m_window->translateView()->findChild<QLabel *>(QStringLiteral("translateStatus"));
        QVERIFY(status);
        for (const QString &span : lost)
            QVERIFY2(status->text().contains(span), qPrintable(status->text()));
    }

    void compareViewBeamTreeAndSteering()
    {
        m_window->tabs()->setCurrentIndex(MainWindow::CompareTab);
        CompareView *view = m_window->compareView();
        view->setColumnCount(2); // the fewest it shows; the second, greedy, is not looked at
        engine::DecodingOptions beam = view->column(0)->options();
        beam.strategy = engine::SearchStrategy::Beam;
        beam.beamSize = 4;
        view->column(0)->setOptions(beam);
        view->input()->setPlainText(QStringLiteral("My brother lives in a small house."));
        QSignalSpy shown(view, &CompareView::comparisonShown);
        view->compare();
        QVERIFY(shown.wait(kTimeoutMs));
        const TranslationResult original = view->column(0)->result();
        const auto [de, en] = glosa::test::germanAndEnglishWords(original.best()->text);
        QVERIFY2(de >= 2 && en == 0, qPrintable(original.best()->text));

        // The search tree of the sentence, every node drawn; the chart shows the step's
        // candidates.
        QCOMPARE(original.traces.size(), 1);
        const SentenceTrace &trace = original.traces[0];
        view->selectToken(0, 1);
        QCOMPARE(view->tree()->nodeCount(), int(trace.trace.nodes.size()));
        QVERIFY(view->chart()->barCount() > 0);

        // Clicking a node off the best path decodes again with its path forced.
        const int node = glosa::test::offPathNode(trace);
        QVERIFY2(node > 0, "beam 4 left no node off the best path");
        const QList<int> prefix = trace.pathTokens(node);
        QTest::mouseClick(view->tree(), Qt::LeftButton, {}, view->tree()->nodePosition(node));
        QCOMPARE(view->columnCount(), 3);
        CompareColumn *steered = view->column(2);
        QVERIFY(steered->isSteered());
        QTRY_VERIFY_WITH_TIMEOUT(steered->hasResult(), kTimeoutMs);
        const TranslationHypothesis &h = *steered->result().best();
        QList<int> start;
        for (int i = 0; i < prefix.size() && i < h.tokens.size(); ++i)
            start << h.tokens[i].id;
        QCOMPARE(start, prefix);
        QVERIFY(h.text != original.best()->text);
    }

    void documentsViewTranslatesADocx()
    {
        m_window->tabs()->setCurrentIndex(MainWindow::DocumentsTab);
        DocumentsView *view = m_window->documentsView();
        const QString docx = glosa::test::testDataDir() + QStringLiteral("/documents/report.docx");
        QSignalSpy opened(view, &DocumentsView::opened);
        view->openDocument(docx);
        QVERIFY(opened.wait(kTimeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(!view->worker()->isBusy(), kTimeoutMs);
        const int paragraphs = view->presenter()->paragraphCount();
        QVERIFY(paragraphs >= 10);

        QSignalSpy finished(view, &DocumentsView::finished);
        view->translateDocument();
        QVERIFY(finished.wait(kTimeoutMs * 2));
        QCOMPARE(finished.first().first().toBool(), true);
        QCOMPARE(view->translatedCount(), paragraphs);
        QCOMPARE(view->progressBar()->value(), view->progressBar()->maximum());

        // Export: the same paragraphs, in German.
        QSignalSpy exported(view, &DocumentsView::exported);
        const QString out = m_state.filePath(QStringLiteral("report.de.docx"));
        view->exportTo(out);
        QVERIFY(exported.wait(kTimeoutMs));
        const documents::Document written = documents::readDocument(out);
        QCOMPARE(written.segments.size(), documents::readDocument(docx).segments.size());
        QString text;
        for (const documents::Segment &segment : written.segments)
            text += QString::fromUtf8(segment.text) + QLatin1Char('\n');
        const auto [de, en] = glosa::test::germanAndEnglishWords(text);
        QVERIFY2(de >= 15 && en <= de / 5, qPrintable(text));
    }

    void historyRecordsAndRestoresIt()
    {
        HistoryStore *store = m_window->context().history()->store();
        QVERIFY(store);
        store->clear();
        const QString english = QStringLiteral("We are going to the station tomorrow.");
        const TranslationResult first = translate(english);
        QVERIFY(!first.isEmpty());
        m_window->tabs()->setCurrentIndex(MainWindow::HistoryTab); // leaving records at once
        QCOMPARE(store->count(), 1);
        QVERIFY(!translate(QStringLiteral("Good night.")).isEmpty());
        m_window->tabs()->setCurrentIndex(MainWindow::HistoryTab);
        QCOMPARE(store->count(), 2);

        HistoryView *history = m_window->historyView();
        const std::optional<HistoryEntry> entry = store->entry(store->recent().items.last().id);
        QVERIFY(entry);
        QCOMPARE(entry->modelId, kModel);
        QCOMPARE(entry->inputText, english);
        QCOMPARE(entry->bestOutput()->text, first.best()->text);
        // The search finds it by a German word of its translation.
        const QString word = first.best()
                                 ->text.section(QLatin1Char(' '), 0, 0)
                                 .remove(QRegularExpression(QStringLiteral("[^\\w]")));
        QVERIFY(!word.isEmpty());
        QTest::keyClicks(history->searchEdit(), word);
        QTRY_VERIFY(history->model()->rowCount() >= 1);
        bool found = false;
        for (int i = 0; i < history->model()->rowCount(); ++i)
            found = found || history->model()->summary(i).id == entry->id;
        QVERIFY2(found, qPrintable(word));
        history->searchEdit()->clear();
        QTRY_COMPARE(history->model()->rowCount(), 2);

        // Open brings the English text, the German translation and the model back.
        for (int i = 0; i < history->model()->rowCount(); ++i)
            if (history->model()->summary(i).id == entry->id)
                history->list()->setCurrentIndex(history->model()->index(i));
        QVERIFY(history->details()->toPlainText().contains(english));
        auto *open = history->findChild<QPushButton *>(QStringLiteral("historyOpen"));
        QVERIFY(open);
        QTest::mouseClick(open, Qt::LeftButton);
        QCOMPARE(m_window->tabs()->currentIndex(), int(MainWindow::TranslateTab));
        QCOMPARE(m_window->currentModelId(), kModel);
        QCOMPARE(m_window->translateView()->sourceEditor()->toPlainText(), english);
        QCOMPARE(m_window->translateView()->targetEditor()->toPlainText(), first.best()->text);
    }

    // A TSV whose comment names its columns German first: the English column is read as the
    // source. The dialog's scores equal the engine's on the same set.
    void evaluateDialogOnAGermanTsv()
    {
        QFile tsv(m_state.filePath(QStringLiteral("de-en.tsv")));
        QVERIFY(tsv.open(QIODevice::WriteOnly));
        tsv.write("# columns: de en\n"
                  "Ich trinke gern Kaffee.\tI like to drink coffee.\n"
                  "Wo ist der Bahnhof?\tWhere is the station?\n"
                  "Meine Schwester liest ein Buch.\tMy sister is reading a book.\n"
                  "Das Wetter ist heute schön.\tThe weather is nice today.\n"
                  "Tom schläft nicht.\tTom isn't sleeping.\n");
        tsv.close();
        m_window->showEvaluate();
        EvaluateDialog *dialog = m_window->evaluateDialog();
        QVERIFY(dialog && dialog->isVisible());
        const int index = dialog->directionPicker()->findData(QStringLiteral("en → de"));
        QVERIFY(index >= 0);
        dialog->directionPicker()->setCurrentIndex(index);
        QCOMPARE(dialog->modelList()->count(), 1);
        QCOMPARE(dialog->modelList()->item(0)->text(), kModel);

        // No bundled sample for en → de: the dialog says so instead of scoring nothing.
        dialog->useTestSetFiles(QString());
        dialog->evaluate();
        QVERIFY2(dialog->statusLabel()->text().contains(QStringLiteral("en → de")),
                 qPrintable(dialog->statusLabel()->text()));

        dialog->useTestSetFiles(tsv.fileName());
        QSignalSpy finished(dialog->worker(), &EvaluationWorker::finished);
        dialog->evaluate();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        QCOMPARE(dialog->scoreTable()->rowCount(), 1);

        QString error;
        const std::optional<engine::TestSet> set =
            readTsvTestSet(tsv.fileName(), QStringLiteral("en"), &error);
        QVERIFY2(set, qPrintable(error));
        QCOMPARE(set->sources.front(), std::string("I like to drink coffee."));
        const auto info = m_window->context().catalog().find(kModel);
        auto model = std::dynamic_pointer_cast<engine::TranslationModel>(
            ModelCatalog::load(*info, *m_window->context().plugins(), &error));
        QVERIFY2(model, qPrintable(error));
        engine::DecodingOptions options = model->defaultDecodingOptions();
        if (dialog->greedyCheck()->isChecked())
            options.strategy = engine::SearchStrategy::Greedy;
        engine::Translator translator(model);
        const engine::ModelEvaluation e = engine::evaluate(translator, *set, options);
        QCOMPARE(dialog->scoreTable()->item(0, 1)->text(), QString::number(e.bleu.score, 'f', 2));
        QCOMPARE(dialog->scoreTable()->item(0, 2)->text(), QString::number(e.chrf, 'f', 2));
        QVERIFY2(e.chrf > 30.0, qPrintable(QString::number(e.chrf)));
        dialog->close();
    }

    // A German user's first start: no package translates from German, so the one into German.
    void germanUserStartsWithEnglishToGerman()
    {
        settings::lastModel.reset();
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QString chosen;
        {
            test::Window window;
            chosen = window.currentModelId();
        }
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QCOMPARE(chosen, kModel);
    }

    void cleanupTestCase() { m_window.reset(); }

private:
    TranslationResult translate(const QString &text)
    {
        return test::translateIn(*m_window, text, kTimeoutMs);
    }

    QTemporaryDir m_state;
    std::unique_ptr<test::Window> m_window;
};

QTEST_MAIN(TestEnglishGerman)
#include "tst_englishgerman.moc"
