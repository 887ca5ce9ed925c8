// The two lists of models a user reads, on the bundled models: the window's
// model picker, grouped by direction under a heading that names it, each direction's default
// first; and the Models dialog, whose table fits its dialog (Licence and Origin needed
// scrolling) and names the bundled models in the interface language (they stayed English in the
// Korean manager).
#include "app/core/appcontext.h"
#include "app/core/models/pluginregistry.h"
#include "app/gui/dialogs/modelsdialog.h"
#include "app/core/displaynames.h"
#include "app/gui/mainwindow.h"

#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"

#include <QComboBox>
#include <QHeaderView>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace glosa;

class TestModelLists : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateAppState(m_dir.path(), m_dir.path(), QStringLiteral("tst_modellists"));
        m_context = std::make_unique<test::BundledContext>();
    }

    void pickerGroupsByDirection()
    {
        MainWindow window(*m_context);
        QComboBox *picker = window.modelPicker();
        // Headings (no model id, not choosable) each followed by that direction's models.
        QStringList headings;
        QString heading;
        int sinceHeading = 0;
        for (int i = 0; i < picker->count(); ++i) {
            const QString id = picker->itemData(i).toString();
            const auto *item = qobject_cast<QStandardItemModel *>(picker->model())->item(i);
            if (id.isEmpty()) {
                QVERIFY2(!(item->flags() & Qt::ItemIsSelectable), qPrintable(item->text()));
                heading = picker->itemText(i);
                headings << heading;
                sinceHeading = 0;
                continue;
            }
            QVERIFY(item->flags() & Qt::ItemIsSelectable);
            const auto info = m_context->catalog().find(id);
            QVERIFY(info);
            QCOMPARE(heading, QStringLiteral("%1 → %2").arg(languageName(info->sourceLanguage),
                                                            languageName(info->targetLanguage)));
            // The closed picker still says the direction.
            QVERIFY2(picker->itemText(i).startsWith(heading + QStringLiteral(" · ")),
                     qPrintable(picker->itemText(i)));
            if (sinceHeading++ == 0) // the default first
                QCOMPARE(info->id,
                         m_context->catalog()
                             .defaultModel(info->task, info->sourceLanguage, info->targetLanguage)
                             ->id);
        }
        QCOMPARE(headings,
                 (QStringList{"English → German", "English → Spanish", "Spanish → English"}));
    }

    void modelsDialogFitsAndSpeaksTheLanguage()
    {
        QVERIFY(MainWindow::setUiLanguage(QStringLiteral("ko")));
        ModelsDialog dialog(m_context->catalog(), *m_context->plugins());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTableWidget *table = dialog.modelTable();
        int total = 0;
        for (int c = 0; c < table->columnCount(); ++c)
            total += table->horizontalHeader()->sectionSize(c);
        const bool scrolls = table->horizontalScrollBar()->isVisible();
        const int room = table->viewport()->width();
        // The bundled models' names, as the picker shows them: in Korean.
        QStringList english;
        static const QRegularExpression hangul(QStringLiteral("[\\x{AC00}-\\x{D7A3}]"));
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString name = table->item(r, 0)->text();
            if (!name.contains(hangul))
                english << name;
        }
        MainWindow::setUiLanguage(QStringLiteral("en"));
        QVERIFY2(!scrolls && total <= room,
                 qPrintable(QStringLiteral("columns %1 px, room %2").arg(total).arg(room)));
        QVERIFY2(english.isEmpty(), qPrintable(english.join(QStringLiteral(" | "))));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<AppContext> m_context;
};

QTEST_MAIN(TestModelLists)
#include "tst_modellists.moc"
