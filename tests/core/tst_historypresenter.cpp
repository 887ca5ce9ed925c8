// HistoryPresenter, the History tab without widgets, on a real SQLite history in a temporary
// folder: the search and the filters it holds are what an export writes (the list showed one
// entry and the export wrote all 14), the entry it selects, starring, deleting and clearing, and
// a failure said as what failed and why.
#include "app/core/history/export.h"
#include "app/core/history/recorder.h"
#include "app/core/history/store.h"
#include "app/core/presenters/historypresenter.h"

#include "tests/support/historytestutil.h"
#include "tests/support/testutil.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace glosa;
using glosa::test::makeTranslation;

namespace {

QList<QByteArray> lines(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().split('\n') : QList<QByteArray>();
}

} // namespace

class TestHistoryPresenter : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<HistoryRecorder> m_recorder;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_settingsDir.isValid());
        glosa::test::isolateAppState(m_settingsDir.path(), m_dir.path(),
                                     QStringLiteral("tst_historypresenter"));
    }

    // Fourteen translations, one of them about coffee, and a starred comparison.
    void init()
    {
        QFile::remove(m_dir.filePath(QStringLiteral("history.sqlite")));
        m_recorder = std::make_unique<HistoryRecorder>();
        QVERIFY(m_recorder->open(m_dir.filePath(QStringLiteral("history.sqlite"))));
        for (int i = 0; i < 13; ++i)
            QVERIFY(m_recorder->record(makeTranslation(
                        QStringLiteral("The house number %1 is red.").arg(i),
                        {QStringLiteral("La casa número %1 es roja.").arg(i)})) > 0);
        QVERIFY(m_recorder->record(makeTranslation(QStringLiteral("A coffee, please."),
                                                   {QStringLiteral("Un café, por favor.")})) > 0);
        QCOMPARE(m_recorder->store()->count(), 14);
    }

    void cleanup() { m_recorder.reset(); }

    // Export what the list shows: with a search, the entries it finds, and how many.
    void exportWritesWhatTheSearchShows()
    {
        HistoryPresenter presenter(m_recorder.get());
        QSignalSpy query(&presenter, &HistoryPresenter::queryChanged);
        presenter.setSearch(QStringLiteral("coffee"));
        QCOMPARE(query.count(), 1);
        QCOMPARE(presenter.count(), std::nullopt); // the list shows the hits, not a count
        const QString path = m_dir.filePath(QStringLiteral("shown.jsonl"));
        const HistoryPresenter::Exported done = presenter.exportTo(path, QStringLiteral("jsonl"));
        QCOMPARE(done.entries, 1);
        QCOMPARE(done.records, 1);
        const QList<QByteArray> written = lines(path);
        QCOMPARE(written.size(), 1);
        QCOMPARE(QJsonDocument::fromJson(written.first()).object().value(QStringLiteral("input"))
                     .toString(),
                 QStringLiteral("A coffee, please."));

        // The search and a filter together: TMX of the translations found, by their number.
        presenter.setSearch(QStringLiteral("house"));
        presenter.setFilter(HistoryPresenter::makeFilter(HistoryKind::Translation, QString(), 0,
                                                         false));
        const QString tmx = m_dir.filePath(QStringLiteral("houses.tmx"));
        QCOMPARE(presenter.exportTo(tmx, QStringLiteral("tmx")).entries, 13);
        QFile file(tmx);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray memory = file.readAll();
        QCOMPARE(memory.count("<tu "), 13);
        QVERIFY(!memory.contains("coffee"));

        // No search: every entry the filters select.
        presenter.setSearch(QString());
        presenter.setFilter({});
        QCOMPARE(presenter.count(), 14);
        const QString all = m_dir.filePath(QStringLiteral("all.csv"));
        QCOMPARE(presenter.exportTo(all, QStringLiteral("csv")).entries, 14);
        QCOMPARE(lines(all).size(), 15); // the header and a row each
    }

    // The store's own export takes the same search (what glosa-cli or a script may call).
    void exportHistoryTakesASearch()
    {
        QTemporaryFile file;
        QVERIFY(file.open());
        const HistoryExport done = exportHistory(*m_recorder->store(), HistoryExportFormat::Csv,
                                                 file, {}, QStringLiteral("café"));
        QCOMPARE(done.entries, 1);
        QCOMPARE(done.records, 1);
    }

    void selectsStarsAndDeletesTheCurrentEntry()
    {
        HistoryPresenter presenter(m_recorder.get());
        const qint64 id = m_recorder->store()->recent({}, 0, 1).items.first().id;
        QSignalSpy current(&presenter, &HistoryPresenter::currentChanged);
        QVERIFY(presenter.select(id));
        QCOMPARE(current.count(), 1);
        QCOMPARE(presenter.currentId(), id);
        QCOMPARE(presenter.current()->inputText, QStringLiteral("A coffee, please."));
        QVERIFY(presenter.canOpen() && presenter.canRerun());

        QVERIFY(presenter.toggleStarCurrent());
        QVERIFY(presenter.current()->starred);
        QVERIFY(m_recorder->store()->entry(id)->starred);
        presenter.setFilter(HistoryPresenter::makeFilter(std::nullopt, QString(), 0, true));
        QCOMPARE(presenter.count(), 1);

        QSignalSpy removed(&presenter, &HistoryPresenter::entryRemoved);
        QVERIFY(presenter.deleteCurrent());
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.first().first().toLongLong(), id);
        QVERIFY(!presenter.current());
        QVERIFY(!m_recorder->store()->entry(id));
        QCOMPARE(presenter.count(), 0);

        QSignalSpy cleared(&presenter, &HistoryPresenter::cleared);
        QCOMPARE(presenter.clearAll(), 13);
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(m_recorder->store()->count(), 0);
    }

    // A failure is what failed and the reason, for the view to say; nothing is written.
    void aFailedExportSaysWhyAndKeepsTheOldFile()
    {
        HistoryPresenter presenter(m_recorder.get());
        QSignalSpy failed(&presenter, &HistoryPresenter::failed);
        // The history's own file is never an export's target.
        const HistoryPresenter::Exported done =
            presenter.exportTo(m_recorder->store()->path(), QStringLiteral("jsonl"));
        QCOMPARE(done.entries, -1);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).value<HistoryPresenter::Action>(),
                 HistoryPresenter::Action::Export);
        QVERIFY(!failed.first().at(1).toString().isEmpty());
        QCOMPARE(m_recorder->store()->count(), 14);
        // A folder that does not exist.
        QCOMPARE(presenter
                     .exportTo(m_dir.filePath(QStringLiteral("no/such/folder/h.jsonl")),
                               QStringLiteral("jsonl"))
                     .entries,
                 -1);
        QCOMPARE(failed.count(), 2);
    }

    void theFormatFollowsTheFileName()
    {
        QCOMPARE(HistoryPresenter::exportFormat(QStringLiteral("a/b.CSV"), QStringLiteral("jsonl")),
                 QStringLiteral("csv"));
        QCOMPARE(HistoryPresenter::exportFormat(QStringLiteral("a/b.txt"), QStringLiteral("tmx")),
                 QStringLiteral("tmx"));
    }
};

QTEST_GUILESS_MAIN(TestHistoryPresenter)
#include "tst_historypresenter.moc"
