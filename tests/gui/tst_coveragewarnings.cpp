// Coverage warnings in the Translate view, on the bundled Transformer (real plugin, real model,
// real worker thread): a sentence translated normally has no warning on the words we then make
// the model leave out; forced to stop half-way (DecodingOptions::targetPrefix: the translation up
// to its verb, then "."), the words cut off get a wavy underline whose tooltip gives the attention
// mass and the threshold; reopened from the history, the same words are underlined again.
#include "app/core/appcontext.h"
#include "app/core/history/entrykinds.h"
#include "app/core/inference/inferenceworker.h"
#include "app/gui/views/translateview.h"

#include "engine/decoding/coverage.h"

#include "tests/support/appcontextutil.h"

#include <QApplication>
#include <QHelpEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextEdit>
#include <QToolTip>

#include <cmath>

using namespace glosa;

namespace {

constexpr int kTimeoutMs = 60000;

// The source words the view underlines (wavy) as likely omissions.
QStringList underlined(QPlainTextEdit *editor, QStringList *tooltips = nullptr)
{
    QStringList words;
    for (const QTextEdit::ExtraSelection &s : editor->extraSelections()) {
        if (!s.format.hasProperty(TranslateView::kCoverageProperty) ||
            s.format.underlineStyle() != QTextCharFormat::WaveUnderline)
            continue;
        words << s.cursor.selectedText();
        if (tooltips)
            *tooltips << s.format.toolTip();
    }
    return words;
}

} // namespace

class TestCoverageWarnings : public QObject
{
    Q_OBJECT
private slots:
    void forcedOmissionIsUnderlined()
    {
        std::unique_ptr<AppContext> context(
            new test::BundledContext);
        TranslateView view(*context);
        view.setLiveTranslate(false);
        view.resize(1280, 800);
        view.show();
        const auto info = context->catalog().find(QStringLiteral("transformer-en-es"));
        QVERIFY(info && info->isValid() && context->chooseModel(info->id));
        InferenceWorker *worker = context->workerFor(*info);
        QVERIFY(QTest::qWaitFor([&] { return worker->isModelLoaded(); }, kTimeoutMs));

        const QString source = QStringLiteral("The black cat sleeps on the old sofa.");
        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(source);
        view.translateNow();
        QVERIFY(shown.wait(kTimeoutMs));
        const TranslationResult plain = view.result();
        QVERIFY(plain.coverage.available);
        QCOMPARE(plain.coverage.threshold, engine::CoverageOptions().threshold);
        const TranslationHypothesis &h = *plain.best();

        QVERIFY2(!underlined(view.sourceEditor()).contains(QStringLiteral("sofa")),
                 qPrintable(h.text));

        // The same translation up to "duerme", then its final "." (the search can only end it).
        engine::DecodingOptions options = plain.options;
        options.targetPrefix.clear();
        for (const TokenSpan &token : h.tokens) {
            options.targetPrefix.push_back(token.id);
            if (token.surface() == QStringLiteral("duerme"))
                break;
        }
        QVERIFY2(options.targetPrefix.size() < std::size_t(h.tokens.size()) - 1,
                 qPrintable("no \"duerme\" before the end of " + h.text));
        QCOMPARE(h.tokens.last().surface(), QStringLiteral("."));
        options.targetPrefix.push_back(h.tokens.last().id);
        std::unique_ptr<InferenceRequest> request = worker->translate(source, {options});
        QSignalSpy translated(request.get(), &InferenceRequest::translated);
        QVERIFY(translated.wait(kTimeoutMs));
        const TranslationResult forced =
            translated.first().first().value<QList<TranslationResult>>().first();
        QVERIFY2(!forced.best()->text.contains(QStringLiteral("sofá")),
                 qPrintable(forced.best()->text));
        view.showStoredResult(forced, QStringLiteral("forced"));

        QStringList tooltips;
        const QStringList words = underlined(view.sourceEditor(), &tooltips);
        QVERIFY2(words.contains(QStringLiteral("sofa")), qPrintable(words.join(',')));
        QVERIFY2(!words.contains(QStringLiteral("cat")), qPrintable(words.join(',')));
        const QString tooltip = tooltips.at(words.indexOf(QStringLiteral("sofa")));
        QVERIFY2(tooltip.contains(QLocale().toString(forced.coverage.threshold, 'f', 2)),
                 qPrintable(tooltip));
        for (const CoveredWord &word : forced.coverage.flagged())
            QVERIFY(word.mass < forced.coverage.threshold);
        // Hovering the underlined word shows why it is underlined: an editor shows no tooltip
        // of an extra selection by itself.
        QPlainTextEdit *editor = view.sourceEditor();
        QTextCursor onSofa(editor->document());
        onSofa.setPosition(int(source.indexOf(QStringLiteral("sofa"))) + 2);
        const QPoint at = editor->cursorRect(onSofa).center();
        QHelpEvent help(QEvent::ToolTip, at, editor->viewport()->mapToGlobal(at));
        QApplication::sendEvent(editor->viewport(), &help);
        QTRY_COMPARE(QToolTip::text(), tooltip);
        const QPoint corner(2, editor->viewport()->height() - 2); // below the one line of text
        QHelpEvent offText(QEvent::ToolTip, corner, editor->viewport()->mapToGlobal(corner));
        QApplication::sendEvent(editor->viewport(), &offText);
        QTRY_VERIFY(QToolTip::text().isEmpty());
        // A legend line says what the underline is while one is shown.
        auto *legend = view.findChild<QLabel *>(QStringLiteral("omissionLegend"));
        QVERIFY(legend && legend->isVisible());

        // Reopened from the history: the same words, masses (the alignment is kept as float16)
        // and warnings, computed again from the stored alignment.
        const TranslationResult restored =
            translationResultFromHistory(translationHistoryEntry(forced, *info));
        QVERIFY(restored.coverage.available);
        QCOMPARE(restored.coverage.words.size(), forced.coverage.words.size());
        for (qsizetype i = 0; i < forced.coverage.words.size(); ++i) {
            const CoveredWord &was = forced.coverage.words[i], &is = restored.coverage.words[i];
            QCOMPARE(is.begin, was.begin);
            QCOMPARE(is.end, was.end);
            QCOMPARE(is.flagged, was.flagged);
            QVERIFY2(std::abs(is.mass - was.mass) < 0.01f,
                     qPrintable(QStringLiteral("%1 vs %2").arg(is.mass).arg(was.mass)));
        }
        view.showStoredResult(restored, QStringLiteral("history"));
        QVERIFY(underlined(view.sourceEditor()).contains(QStringLiteral("sofa")));
        // The warning is the best hypothesis's: typing over the source takes it away.
        view.sourceEditor()->setPlainText(source + QStringLiteral(" Yes."));
        QVERIFY(underlined(view.sourceEditor()).isEmpty());
        QVERIFY(!view.findChild<QLabel *>(QStringLiteral("omissionLegend"))->isVisible());
    }
};

QTEST_MAIN(TestCoverageWarnings)
#include "tst_coveragewarnings.moc"
