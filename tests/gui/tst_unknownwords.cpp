// Made-up words in the Translate view, on a bundled model (real plugin, real model, real worker
// thread) and the system's Spanish Hunspell dictionary: a word of the translation in neither the
// dictionary nor the source is underlined with red dots, hovering it says why, a legend line
// says what the underline is, and a click anywhere on the word shows the candidates of its least
// probable piece in the existing chart. A right translation and the user's edits have none.
#include "app/core/appcontext.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/inference/wordcheck.h"
#include "app/gui/views/translateview.h"
#include "app/gui/widgets/probabilitychart.h"

#include "tests/support/appcontextutil.h"

#include <QApplication>
#include <QHelpEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextEdit>
#include <QToolTip>

using namespace glosa;

namespace {

constexpr int kTimeoutMs = 60000;
// What the default English → Spanish model makes up (issue #41's "Hello!" → "¡Holalo!").
const QString kModel = QStringLiteral("transformer-general-en-es");
const QString kMadeUpSource = QStringLiteral("Hello!");
const QString kMadeUpWord = QStringLiteral("Holalo");
const QString kRightSource = QStringLiteral("Hi!"); // "¡Hola!"

// The target pane's unknown-word marks: their text, and their formats in `formats`.
QStringList marked(QPlainTextEdit *editor, QList<QTextCharFormat> *formats = nullptr)
{
    QStringList words;
    for (const QTextEdit::ExtraSelection &s : editor->extraSelections())
        if (s.format.hasProperty(AlignmentOverlay::kUnknownWordProperty)) {
            words << s.cursor.selectedText();
            if (formats)
                *formats << s.format;
        }
    return words;
}

} // namespace

class TestUnknownWords : public QObject
{
    Q_OBJECT
private slots:
    void aMadeUpWordIsUnderlinedAndShowsItsCandidates()
    {
        if (!WordCheck::forLanguage(QStringLiteral("es")))
            QSKIP("no Spanish Hunspell dictionary (apt-get install hunspell-es)");
        test::BundledContext context;
        TranslateView view(context);
        view.setLiveTranslate(false);
        view.resize(1280, 800);
        view.show();
        QVERIFY(context.chooseModel(kModel));
        TranslatePresenter *presenter = view.presenter();
        QVERIFY(QTest::qWaitFor([&] { return presenter->isModelLoaded(); }, kTimeoutMs));
        QVERIFY(QTest::qWaitFor([&] { return presenter->checksWords(); }, kTimeoutMs));

        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(kMadeUpSource);
        view.translateNow();
        QVERIFY(shown.wait(kTimeoutMs));
        QPlainTextEdit *target = view.targetEditor();
        QList<QTextCharFormat> formats;
        QCOMPARE(marked(target, &formats), QStringList{kMadeUpWord});
        QCOMPARE(formats.first().underlineStyle(), QTextCharFormat::DotLine);
        const QString tip = formats.first().toolTip();
        QVERIFY2(tip.contains(QStringLiteral("Not a known Spanish word")), qPrintable(tip));
        auto *legend = view.findChild<QLabel *>(QStringLiteral("unknownWordLegend"));
        QVERIFY(legend && legend->isVisible());
        QVERIFY2(legend->text().contains(QStringLiteral("Spanish")), qPrintable(legend->text()));

        // Hovering the word says why it is underlined.
        const int begin = int(target->toPlainText().indexOf(kMadeUpWord));
        QTextCursor onWord(target->document());
        onWord.setPosition(begin + 1); // its first piece, not the one that went astray
        const QPoint at = target->cursorRect(onWord).center();
        QHelpEvent help(QEvent::ToolTip, at, target->viewport()->mapToGlobal(at));
        QApplication::sendEvent(target->viewport(), &help);
        QTRY_COMPARE(QToolTip::text(), tip);

        // A click anywhere on it shows the candidates of its least probable piece.
        const UnknownWord word = presenter->unknownWords().first();
        QVERIFY(word.token >= 0);
        QTest::mouseClick(target->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(view.candidatesToken(), word.token);
        QVERIFY(
            QTest::qWaitFor([&] { return view.candidatesChart()->barCount() > 0; }, kTimeoutMs));

        // The user's version of the translation is theirs: no marks, no legend.
        target->setPlainText(target->toPlainText() + QStringLiteral(" Sí."));
        QVERIFY(marked(target).isEmpty());
        QVERIFY(!legend->isVisible());

        // A right translation of the same kind has none.
        view.setSourceText(kRightSource);
        view.translateNow();
        QVERIFY(shown.wait(kTimeoutMs));
        QVERIFY2(marked(target).isEmpty(), qPrintable(target->toPlainText()));
        QVERIFY(!legend->isVisible());
    }
};

QTEST_MAIN(TestUnknownWords)
#include "tst_unknownwords.moc"
