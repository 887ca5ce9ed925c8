// Switching the interface language in an open window leaves nothing of the old one: the
// main window brought to a state with every label built from a template on screen
// (a translation reopened "From the history (…)", a document's "10 / 10 sentences", a Compare
// column steered by "prefix: «…»", a caption's time), then switched en → ko → es → en. At each
// step every visible string of every tab, and the application's font, must be those of a window
// started in that language and brought to the same state. Digits are left out of the comparison
// (times and counts of the history differ between the windows; their words may not).
#include "app/core/appcontext.h"
#include "app/core/inference/inferenceworker.h"
#include "app/gui/mainwindow.h"
#include "app/gui/views/captionview.h"
#include "app/gui/views/compareview.h"
#include "app/gui/views/documentsview.h"
#include "app/gui/views/historymodel.h"
#include "app/gui/views/historyview.h"
#include "app/gui/views/translateview.h"
#include "app/gui/widgets/beamtreewidget.h"

#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"
#include "tests/support/traceutil.h"
#include "tests/support/visibletext.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QFontInfo>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

#include <memory>

using namespace glosa;

namespace {

constexpr int kTimeoutMs = 120000;

// What a user reads of `root`: the visible labels, buttons, tabs, combo entries, group titles,
// headers and placeholders with where they are (the editors' text is content, not interface),
// and the font the interface is drawn in.
QStringList visibleStrings(QWidget *root)
{
    QStringList texts;
    const auto add = [&](const QString &text, QWidget *w) {
        static const QRegularExpression digits(QStringLiteral("\\d+"));
        if (!text.trimmed().isEmpty())
            texts << QStringLiteral("%1 %2: %3")
                         .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(),
                              QString(text).replace(digits, QStringLiteral("#")));
    };
    forEachVisibleText(root, add);
    return texts;
}

QStringList snapshot(MainWindow &window)
{
    QStringList all;
    const QFont font = QApplication::font();
    all << QStringLiteral("font: %1 | %2 | substitutes %3 | drawn in %4")
               .arg(font.family(), font.families().join(QLatin1Char(',')),
                    QFont::substitutes(font.family()).join(QLatin1Char(',')),
                    QFontInfo(window.translateView()->font()).family());
    const int shown = window.tabs()->currentIndex();
    for (int tab = 0; tab < window.tabs()->count(); ++tab) {
        window.tabs()->setCurrentIndex(tab);
        QCoreApplication::processEvents();
        for (const QString &text : visibleStrings(&window))
            all << QStringLiteral("tab %1 %2").arg(tab).arg(text);
    }
    window.tabs()->setCurrentIndex(shown);
    all.removeDuplicates();
    all.sort();
    return all;
}

// The same state in any window: a translation reopened from the history, a document translated,
// and a Compare column steered from the beam tree.
bool bringToState(MainWindow &window)
{
    AppContext &context = window.context();
    // English → Spanish in every language (the Spanish interface starts on Spanish → English).
    if (!context.chooseModel(QStringLiteral("transformer-general-en-es")))
        return false;
    const auto model = context.choice(AppContext::kTranslation).model;
    if (!model ||
        !QTest::qWaitFor([&] { return context.workerFor(*model)->isModelLoaded(); }, kTimeoutMs))
        return false;
    TranslateView *translate = window.translateView();
    translate->setLiveTranslate(false);
    QSignalSpy translated(translate, &TranslateView::translationShown);
    translate->setSourceText(QStringLiteral("The station is closed today."));
    translate->translateNow();
    if (!translated.wait(kTimeoutMs))
        return false;

    // Compare: beam 4 on two sentences, the first off-path node of the second one clicked.
    window.tabs()->setCurrentIndex(MainWindow::CompareTab);
    CompareView *compare = window.compareView();
    compare->setColumnCount(2);
    engine::DecodingOptions beam = compare->column(0)->options();
    beam.strategy = engine::SearchStrategy::Beam;
    beam.beamSize = 4;
    compare->column(0)->setOptions(beam);
    compare->input()->setPlainText(
        QStringLiteral("The black cat sleeps on the old sofa. The dog is very small."));
    QSignalSpy compared(compare, &CompareView::comparisonShown);
    compare->compare();
    if (!compared.wait(kTimeoutMs))
        return false;
    const TranslationResult original = compare->column(0)->result();
    if (original.traces.size() != 2)
        return false;
    compare->selectToken(0, original.traces[1].targetOffset);
    const int node = test::offPathNode(original.traces[1]);
    if (node <= 0)
        return false;
    QTest::mouseClick(compare->tree(), Qt::LeftButton, {}, compare->tree()->nodePosition(node));
    if (compare->columnCount() != 3 ||
        !QTest::qWaitFor([&] { return compare->column(2)->hasResult(); }, kTimeoutMs))
        return false;

    // A caption: its time ("412 ms").
    window.tabs()->setCurrentIndex(MainWindow::CaptionTab);
    QSignalSpy captioned(window.captionView(), &CaptionView::captionShown);
    window.captionView()->addImages({QStringLiteral(GLOSA_TEST_DATA_DIR "/images/chelsea.jpg")});
    if (!captioned.wait(kTimeoutMs))
        return false;

    window.tabs()->setCurrentIndex(MainWindow::DocumentsTab);
    DocumentsView *documents = window.documentsView();
    QSignalSpy opened(documents, &DocumentsView::opened);
    documents->openDocument(QStringLiteral(GLOSA_TEST_DATA_DIR "/documents/sample.md"));
    if (!opened.wait(kTimeoutMs) ||
        !QTest::qWaitFor([&] { return !documents->worker()->isBusy(); }, kTimeoutMs))
        return false;
    QSignalSpy finished(documents, &DocumentsView::finished);
    documents->translateDocument();
    if (!finished.wait(kTimeoutMs))
        return false;

    // The translation, reopened from the history: "From the history (…)".
    window.tabs()->setCurrentIndex(MainWindow::HistoryTab);
    HistoryView *history = window.historyView();
    if (!QTest::qWaitFor(
            [&] {
                history->refresh();
                for (int row = 0; row < history->model()->rowCount(); ++row)
                    if (history->model()->summary(row).kind == HistoryKind::Translation) {
                        history->list()->setCurrentIndex(history->model()->index(row));
                        return true;
                    }
                return false;
            },
            kTimeoutMs))
        return false;
    history->openCurrent();
    QCoreApplication::processEvents();
    window.tabs()->setCurrentIndex(MainWindow::TranslateTab);
    return true;
}

std::unique_ptr<AppContext> makeContext()
{
    return std::make_unique<test::BundledContext>();
}

} // namespace

class TestLanguageSwitch : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateAppState(m_dir.path(), m_dir.path(), QStringLiteral("tst_languageswitch"));
    }

    void switchingMatchesAFreshStart()
    {
        // Fresh starts first: English before any other language has been installed.
        QMap<QString, QStringList> fresh;
        for (const char *language : {"en", "ko", "es"}) {
            QVERIFY(MainWindow::setUiLanguage(QLatin1String(language)));
            auto context = makeContext();
            MainWindow window(*context);
            window.resize(1280, 800);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY2(bringToState(window), language);
            fresh[QLatin1String(language)] = snapshot(window);
        }

        QVERIFY(MainWindow::setUiLanguage(QStringLiteral("en")));
        auto context = makeContext();
        MainWindow window(*context);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(bringToState(window));
        QStringList problems;
        for (const char *language : {"ko", "es", "en"}) {
            QVERIFY(MainWindow::setUiLanguage(QLatin1String(language)));
            QCoreApplication::processEvents(); // the posted QEvent::LanguageChange
            const QStringList now = snapshot(window);
            const QStringList &expected = fresh[QLatin1String(language)];
            for (const QString &text : now)
                if (!expected.contains(text))
                    problems << QStringLiteral("%1, switched: %2").arg(language, text);
            for (const QString &text : expected)
                if (!now.contains(text))
                    problems << QStringLiteral("%1, fresh:    %2").arg(language, text);
        }
        MainWindow::setUiLanguage(QStringLiteral("en"));
        for (const QString &problem : std::as_const(problems))
            qWarning().noquote() << problem;
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("%1 strings differ").arg(problems.size())));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestLanguageSwitch)
#include "tst_languageswitch.moc"
