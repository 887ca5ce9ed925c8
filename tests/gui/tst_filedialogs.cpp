// The app's file dialogs as a user meets them: each kind of file
// (documents, images, models, exports) starts where the last dialog for that kind left off,
// so that History's export does not open in the photos folder and Import reopens beside the
// last model folder; and Import pointed at a wrong folder says what a model folder holds. The
// real main window on the bundled models; each modal dialog is answered as a user would, by
// choosing in it.
#include "app/core/appcontext.h"
#include "app/gui/filedialogs.h"
#include "app/gui/mainwindow.h"
#include "app/gui/views/captionview.h"
#include "app/gui/views/historyview.h"

#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

using namespace glosa;

namespace {

// Answers the next modal dialog of type T as soon as it shows (the static QFileDialog and
// QMessageBox functions run their own event loop until it is answered). `answer` returns whether
// it is done; until then it is asked again on the next tick.
template <typename T> void answerNext(std::function<bool(T *)> answer)
{
    auto *timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, answer] {
        auto *dialog = qobject_cast<T *>(QApplication::activeModalWidget());
        if (!dialog || !dialog->isVisible() || !answer(dialog))
            return;
        timer->stop();
        timer->deleteLater();
    });
    timer->start();
}

// The next file dialog: where it started, then `choice` chosen in it (cancelled when empty).
// The choice is typed into the dialog's name field, as a person would: selectFile() leaves that
// field alone once it has keyboard focus, which the dialog takes when it is activated (early or
// late, depending on the machine's load), and accepting then picks nothing or the folder shown.
void answerFileDialog(QString *startedIn, const QString &choice)
{
    answerNext<QFileDialog>([startedIn, choice](QFileDialog *dialog) {
        *startedIn = QDir(dialog->directory()).absolutePath();
        if (choice.isEmpty()) {
            dialog->reject();
            return true;
        }
        auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
        if (!name)
            return false;
        dialog->setDirectory(QFileInfo(choice).absolutePath());
        name->setText(QFileInfo(choice).fileName());
        static_cast<QDialog *>(dialog)->accept(); // QFileDialog's own, which checks the choice
        return !dialog->isVisible();
    });
}

std::unique_ptr<AppContext> makeContext()
{
    return std::make_unique<test::BundledContext>();
}

} // namespace

class TestFileDialogs : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_state.isValid());
        test::isolateAppState(m_state.path(), m_state.path(), QStringLiteral("tst_filedialogs"));
    }

    // Photos opened in one folder; the history's export starts elsewhere, and each kind then
    // starts where it was last left.
    void eachKindOfFileStartsWhereItWasLeft()
    {
        QTemporaryDir files;
        QVERIFY(files.isValid());
        const QDir root(files.path());
        for (const char *folder : {"photos", "exports"})
            QVERIFY(root.mkpath(QLatin1String(folder)));
        const QString photo = root.filePath(QStringLiteral("photos/cat.jpg"));
        QVERIFY(QFile::copy(QStringLiteral(GLOSA_TEST_DATA_DIR "/images/chelsea.jpg"), photo));

        auto context = makeContext();
        MainWindow window(*context);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString started;
        answerFileDialog(&started, photo);
        window.captionView()->openImages();
        QCOMPARE(startFolder(FileKind::Images), root.filePath(QStringLiteral("photos")));

        // The history's export is not a photo: it does not start among them.
        answerFileDialog(&started, root.filePath(QStringLiteral("exports/history.jsonl")));
        window.historyView()->exportHistory();
        QVERIFY2(started != root.filePath(QStringLiteral("photos")), qPrintable(started));
        QCOMPARE(startFolder(FileKind::Exports), root.filePath(QStringLiteral("exports")));

        // Each again where it was left.
        answerFileDialog(&started, QString());
        window.historyView()->exportHistory();
        QCOMPARE(started, root.filePath(QStringLiteral("exports")));
        answerFileDialog(&started, QString());
        window.captionView()->openImages();
        QCOMPARE(started, root.filePath(QStringLiteral("photos")));
        QCOMPARE(settings::lastFolderOf(FileKind::Images).value(),
                 root.filePath(QStringLiteral("photos")));
    }

    // Import pointed at a wrong folder says what a model folder holds; the next Import starts
    // beside it, where the right one is likely to be, not in the folder Glosa started in.
    void importOfAWrongFolderSaysWhatAModelFolderHolds()
    {
        QTemporaryDir files;
        QVERIFY(files.isValid());
        const QDir root(files.path());
        QVERIFY(root.mkpath(QStringLiteral("downloads/notes")));
        const QString wrong = root.filePath(QStringLiteral("downloads/notes"));
        QFile notes(QDir(wrong).filePath(QStringLiteral("notes.txt")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.close();

        auto context = makeContext();
        MainWindow window(*context);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString started, message;
        answerFileDialog(&started, wrong);
        answerNext<QMessageBox>([&message](QMessageBox *box) {
            message = box->text();
            box->accept();
            return true;
        });
        window.importModel();
        QTRY_VERIFY_WITH_TIMEOUT(!message.isEmpty(), 30000);
        for (const char *part : {"is not a model folder", "Glosa package", "model.json", "MarianMT",
                                 "config.json", "source.spm", "target.spm", "vocab.json"})
            QVERIFY2(message.contains(QLatin1String(part)), qPrintable(message));

        answerFileDialog(&started, QString());
        window.importModel();
        QCOMPARE(started, root.filePath(QStringLiteral("downloads")));
    }

private:
    QTemporaryDir m_state;
};

QTEST_MAIN(TestFileDialogs)
#include "tst_filedialogs.moc"
