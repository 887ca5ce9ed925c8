// DocumentsPresenter, the Documents tab without its widgets, driven with the shipped Transformers
// (resources/models/transformer-en-es and -es-en) on the LibreOffice-made report.docx and
// report.html: open, translate, the language guard, the translation's runs as the export writes
// them, edits of a sentence, export and the history entry. The worker thread translates; the
// tests wait only on the presenter's own signals.
#include "tests/support/testutil.h"

#include "app/core/appcontext.h"
#include "app/core/documents/formats.h"
#include "app/core/documents/layout.h"
#include "app/core/history/recorder.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/presenters/documentspresenter.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

using namespace glosa;
using Start = DocumentsPresenter::Start;

namespace {

QString fixture(const QString &name)
{
    return glosa::test::testDataDir() + QStringLiteral("/documents/") + name;
}

// The stretches of `text` that `ranges` (UTF-16, in any order, may touch or nest) cover, each
// as long as it goes, trimmed.
QStringList stretches(const QString &text, std::vector<std::pair<int, int>> ranges)
{
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<int, int>> merged;
    for (const auto &range : ranges)
        if (!merged.empty() && range.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, range.second);
        else
            merged.push_back(range);
    QStringList found;
    for (const auto &[begin, end] : merged)
        found << text.mid(begin, end - begin).trimmed();
    found.removeAll(QString());
    return found;
}

// What the presenter shows of paragraph `p` with `style` (documents::TextStyle).
QStringList shown(const DocumentsPresenter &presenter, int p, int style)
{
    std::vector<std::pair<int, int>> ranges;
    for (const documents::StyledRun &run : presenter.targetRuns(p))
        if (run.styles & style)
            ranges.emplace_back(run.begin, run.end);
    return stretches(presenter.target(p), ranges);
}

// What an exported file, read back, has of segment `s` with `style`.
QStringList written(const documents::Document &document,
                    const std::vector<documents::SegmentLayout> &layout, std::size_t s, int style)
{
    const QByteArray &bytes = document.segments[s].text;
    auto utf16 = [&](qsizetype at) { return int(QString::fromUtf8(bytes.left(at)).size()); };
    std::vector<std::pair<int, int>> ranges;
    for (const documents::StyledRange &styled : layout[s].styles)
        if (styled.styles & style)
            ranges.emplace_back(utf16(styled.range.begin), utf16(styled.range.end));
    return stretches(QString::fromUtf8(bytes), ranges);
}

} // namespace

class TestDocumentsPresenter : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString models = QStringLiteral(GLOSA_SOURCE_DIR "/resources/models");
        if (!QFileInfo::exists(models + QStringLiteral("/transformer-en-es/model.json")))
            QSKIP("resources/models/transformer-en-es is not exported");
        QVERIFY(m_dir.isValid());
        glosa::test::isolateAppState(m_dir.filePath(QStringLiteral("settings")),
                                     m_dir.filePath(QStringLiteral("data")),
                                     QStringLiteral("tst_documentspresenter"));
        m_context = std::make_unique<AppContext>(
            QStringList{QStringLiteral(GLOSA_BINARY_DIR "/plugins")}, QStringList{models});
        m_enEs = ModelCatalog::readPackage(models + QStringLiteral("/transformer-en-es"));
        m_esEn = ModelCatalog::readPackage(models + QStringLiteral("/transformer-es-en"));
        QVERIFY2(m_enEs.isValid() && m_esEn.isValid(), qPrintable(m_enEs.error + m_esEn.error));
        if (!m_context->plugins()->pluginForArchitecture(m_enEs.architecture))
            QSKIP("the transformer plugin is not built");
    }

    void init() { QVERIFY(m_context->chooseModel(m_enEs.id)); }

    // Open, translate and the history: the paragraphs with their layout, progress to the end,
    // every paragraph in Spanish, one document entry with the source and the translation.
    void translatesADocxAndRecordsIt()
    {
        HistoryRecorder *history = m_context->history();
        QVERIFY(history->open(m_dir.filePath(QStringLiteral("translates.sqlite"))));
        {
            DocumentsPresenter presenter(*m_context);
            QVERIFY(open(presenter, fixture(QStringLiteral("report.docx"))));
            const int paragraphs = presenter.paragraphCount();
            QVERIFY(paragraphs >= 10);
            QCOMPARE(presenter.layouts().size(), paragraphs);
            int cells = 0, headings = 0, items = 0;
            for (const documents::ParagraphLayout &layout : presenter.layouts()) {
                cells += layout.role.kind == documents::BlockRole::Kind::TableCell;
                headings += layout.role.kind == documents::BlockRole::Kind::Heading;
                items += layout.role.kind == documents::BlockRole::Kind::ListItem;
            }
            QVERIFY(cells == 4 && headings >= 1 && items >= 1);
            // Until translated, the translation pane shows the source, runs and all.
            QCOMPARE(presenter.targets(), presenter.sources());
            QCOMPARE(presenter.targetRuns(1).size(), presenter.layouts()[1].runs.size());
            QVERIFY(idle(presenter)); // opened() comes while the read's job still runs
            QVERIFY(presenter.canTranslate());

            QSignalSpy finished(&presenter, &DocumentsPresenter::finished);
            QSignalSpy translated(&presenter, &DocumentsPresenter::paragraphsTranslated);
            QSignalSpy progress(&presenter, &DocumentsPresenter::progressChanged);
            QCOMPARE(presenter.translate(), Start::Started);
            QVERIFY(presenter.isTranslating() && presenter.canCancel());
            QVERIFY(finished.wait(120000));
            QCOMPARE(finished.first().first().toBool(), true);
            QVERIFY(!translated.isEmpty() && !progress.isEmpty());
            QCOMPARE(presenter.translatedCount(), paragraphs);
            QVERIFY(presenter.sentencesTotal() > 0);
            QCOMPARE(presenter.sentencesDone(), presenter.sentencesTotal());
            QVERIFY(!presenter.isTranslating() && !presenter.canTranslate());
            const QString spanish = presenter.targets().join(QLatin1Char('\n'));
            const auto [es, en] = glosa::test::spanishAndEnglishWords(spanish);
            QVERIFY2(es >= 15 && en <= es / 5, qPrintable(spanish));

            HistoryFilter documents;
            documents.kind = HistoryKind::Document;
            const HistoryPage page = history->store()->recent(documents);
            QCOMPARE(page.items.size(), 1);
            const std::optional<HistoryEntry> entry = history->store()->entry(page.items[0].id);
            QVERIFY(entry.has_value());
            QCOMPARE(entry->inputText, presenter.sources().join(QLatin1Char('\n')));
            QCOMPARE(entry->bestOutput()->text, spanish);
            QCOMPARE(entry->editedText, QString());
        }
        history->close();
    }

    // The translation's bold, italic and links are on the words the exported file has them on:
    // the runs come from the same projection (projectSpans) as the export, not a second one.
    void theTranslationsRunsAreTheExports_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("docx") << QStringLiteral("report.docx");
        QTest::newRow("html") << QStringLiteral("report.html");
        QTest::newRow("odt") << QStringLiteral("report.odt");
    }
    void theTranslationsRunsAreTheExports()
    {
        QFETCH(QString, file);
        DocumentsPresenter presenter(*m_context);
        QVERIFY(open(presenter, fixture(file)));
        QVERIFY(translate(presenter));
        QSignalSpy exported(&presenter, &DocumentsPresenter::exported);
        const QString out = m_dir.filePath(QStringLiteral("runs.") + file);
        presenter.exportTo(out);
        QVERIFY(exported.wait(30000));
        const documents::Document document = documents::readDocument(out);
        const std::vector<documents::SegmentLayout> layout = documents::describeLayout(document);
        QCOMPARE(int(document.segments.size()), presenter.paragraphCount());
        int bold = 0, partly = 0;
        for (int p = 0; p < presenter.paragraphCount(); ++p) {
            for (const int style : {documents::Bold, documents::Italic, documents::Link})
                QCOMPARE(shown(presenter, p, style),
                         written(document, layout, std::size_t(p), style));
            const QStringList boldHere = shown(presenter, p, documents::Bold);
            bold += int(boldHere.size());
            partly += !boldHere.isEmpty() && boldHere.join(' ') != presenter.target(p).trimmed();
        }
        // "The <b>weather</b> was very nice": bold on a word of its translation, not all of it.
        QVERIFY(bold >= 1 && partly >= 1);
    }

    // The language guard: an English document for Spanish → English is not translated until the
    // user goes on; the direction it asks for is offered.
    void theLanguageGuardStopsAnEnglishDocumentForSpanishToEnglish()
    {
        QVERIFY(m_context->chooseModel(m_esEn.id));
        DocumentsPresenter presenter(*m_context);
        QVERIFY(open(presenter, fixture(QStringLiteral("report.docx"))));
        QSignalSpy mismatch(&presenter, &DocumentsPresenter::languageMismatchFound);
        QSignalSpy started(&presenter, &DocumentsPresenter::started);
        QCOMPARE(presenter.translate(), Start::WrongLanguage);
        QCOMPARE(mismatch.count(), 1);
        QCOMPARE(started.count(), 0);
        QCOMPARE(presenter.languageMismatch().language, QStringLiteral("en"));
        QVERIFY(presenter.languageMismatch().offer.has_value());
        QCOMPARE(presenter.languageMismatch().offer->sourceLanguage, QStringLiteral("en"));
        QCOMPARE(presenter.modelSourceLanguage(), QStringLiteral("es"));
        QVERIFY(!presenter.isTranslating());

        // Translate anyway.
        presenter.acceptLanguage();
        QSignalSpy finished(&presenter, &DocumentsPresenter::finished);
        QCOMPARE(presenter.translate(), Start::Started);
        QVERIFY(finished.wait(120000));
        QCOMPARE(presenter.translatedCount(), presenter.paragraphCount());
        QCOMPARE(mismatch.count(), 1);
    }

    // Post-editing a sentence: the edit is that sentence's, the next sentence and the bold in it
    // move with the text, Export writes it, and translating anew with other settings asks first.
    void aSentenceEditMovesWhatFollowsAndIsExported()
    {
        DocumentsPresenter presenter(*m_context);
        QVERIFY(open(presenter, fixture(QStringLiteral("report.html"))));
        QVERIFY(translate(presenter));
        int p = -1;
        for (int i = 0; i < presenter.paragraphCount(); ++i)
            if (presenter.sources()[i].startsWith(QStringLiteral("Last summer")))
                p = i;
        QVERIFY(p >= 0);
        const QList<documents::SentenceLink> before = presenter.sentences(p);
        QVERIFY(before.size() >= 2);
        const QString was = presenter.target(p);
        const QStringList boldBefore = shown(presenter, p, documents::Bold);
        QVERIFY(!boldBefore.isEmpty());

        QSignalSpy edited(&presenter, &DocumentsPresenter::editsChanged);
        const QString mine = QStringLiteral("El verano pasado fuimos a un pueblo junto al mar.");
        presenter.editParagraph(p, mine + was.mid(before[0].targetEnd));
        QCOMPARE(edited.count(), 1);
        QCOMPARE(presenter.edits().value(p), (QMap<int, QString>{{0, mine}}));
        QVERIFY(presenter.hasUnexportedEdits());
        const int delta = int(mine.size()) - before[0].targetEnd;
        QCOMPARE(presenter.sentences(p)[1].targetBegin, before[1].targetBegin + delta);
        QCOMPARE(shown(presenter, p, documents::Bold), boldBefore);
        QCOMPARE(presenter.sentenceAt(p, int(mine.size()) + 2, false), 1);

        QSignalSpy exported(&presenter, &DocumentsPresenter::exported);
        const QString out = m_dir.filePath(QStringLiteral("edited.html"));
        presenter.exportTo(out);
        QVERIFY(exported.wait(30000));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(file.readAll()).contains(mine));
        QVERIFY(!presenter.hasUnexportedEdits());

        // Another quality: the shown translation is out of date; an unexported edit asks first.
        presenter.editParagraph(p, presenter.target(p) + QStringLiteral("!"));
        presenter.setQuality(DocumentsPresenter::Quality::Fast);
        QVERIFY(idle(presenter)); // the export's job has ended
        QVERIFY(presenter.isOutOfDate() && presenter.canTranslate());
        QCOMPARE(presenter.translate(), Start::AskToDiscardEdits);
        QVERIFY(!presenter.edits().isEmpty());
        QSignalSpy finished(&presenter, &DocumentsPresenter::finished);
        QCOMPARE(presenter.translate(true), Start::Restarting);
        QVERIFY(finished.wait(120000));
        QVERIFY(presenter.edits().isEmpty());
        QVERIFY(!presenter.isOutOfDate());
        QCOMPARE(presenter.translatedCount(), presenter.paragraphCount());
    }

    // A Translate right after a Cancel is a translation of its own: the cancelled one still stops
    // (finished(false)) and the new one translates the rest. Before, both shared one flag, which
    // translate() cleared before the running translation read it: that one went on to the end.
    void aCancelIsNotUndoneByTheNextTranslate()
    {
        // The 50 everyday sentences six times over, one paragraph each.
        QFile sentences(fixture(QStringLiteral("sentences.txt")));
        QVERIFY(sentences.open(QIODevice::ReadOnly));
        const QByteArray text = sentences.readAll();
        const QString path = m_dir.filePath(QStringLiteral("longer.txt"));
        QFile longer(path);
        QVERIFY(longer.open(QIODevice::WriteOnly));
        for (int i = 0; i < 6; ++i)
            longer.write(text);
        longer.close();
        DocumentsPresenter presenter(*m_context);
        QVERIFY(open(presenter, path));
        QCOMPARE(presenter.paragraphCount(), 300);
        documents::DocumentWorker *worker = presenter.worker();
        QSignalSpy finished(worker, &documents::DocumentWorker::finished);
        QSignalSpy progress(worker, &documents::DocumentWorker::progress);
        worker->translate();
        QVERIFY(progress.wait(120000)); // the first batch of 300 sentences is done: it runs
        worker->cancel();
        worker->translate();
        while (finished.count() < 2)
            QVERIFY(finished.wait(180000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(finished.at(1).at(0).toBool(), true);
        QCOMPARE(presenter.translatedCount(), 300);
    }

    // Closing the app (the presenter goes with its view) records the edits made since the last
    // export.
    void editsReachTheHistoryWhenThePresenterGoes()
    {
        HistoryRecorder *history = m_context->history();
        QVERIFY(history->open(m_dir.filePath(QStringLiteral("closing.sqlite"))));
        auto presenter = std::make_unique<DocumentsPresenter>(*m_context);
        QVERIFY(open(*presenter, fixture(QStringLiteral("sample.txt"))));
        QVERIFY(translate(*presenter));
        HistoryFilter documents;
        documents.kind = HistoryKind::Document;
        QCOMPARE(history->store()->recent(documents).items.size(), 1);
        const qint64 id = history->store()->recent(documents).items[0].id;
        QCOMPARE(history->store()->entry(id)->editedText, QString()); // not edited yet
        presenter->editParagraph(0, presenter->target(0) + QStringLiteral(" (al cerrar)"));
        QVERIFY(!presenter->edits().isEmpty());
        presenter.reset();
        QVERIFY(history->store()->entry(id)->editedText.contains(QStringLiteral(" (al cerrar)")));
        history->close();
    }

private:
    // Opens `path`; false when it does not open.
    static bool open(DocumentsPresenter &presenter, const QString &path)
    {
        QSignalSpy opened(&presenter, &DocumentsPresenter::opened);
        presenter.open(path);
        return opened.wait(20000) && presenter.isOpen();
    }

    // Waits until the worker has no job; false when it does not come to that.
    static bool idle(DocumentsPresenter &presenter)
    {
        for (;;) {
            QSignalSpy state(&presenter, &DocumentsPresenter::stateChanged);
            if (!presenter.isBusy())
                return true;
            if (!state.wait(30000))
                return false;
        }
    }

    // Translates the whole document; false when it does not finish complete.
    static bool translate(DocumentsPresenter &presenter)
    {
        QSignalSpy finished(&presenter, &DocumentsPresenter::finished);
        return presenter.translate() == Start::Started && finished.wait(120000) &&
               finished.first().first().toBool();
    }

    std::unique_ptr<AppContext> m_context;
    ModelInfo m_enEs, m_esEn;
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestDocumentsPresenter)
#include "tst_documentspresenter.moc"
