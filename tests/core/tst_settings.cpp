// Typed settings (app/core/settings/settings.h, app/core/history/retention.h) over a real INI file, carried
// into the app's own settings file (app/core/settings/settingsfile.h) as a start does, in a
// temporary folder: what a settings file written by hand or by an older build reads as, that an
// absent key reads as its setting's one default, and that setting and resetting reach the file.
#include "app/core/history/retention.h"
#include "app/core/settings/settings.h"

#include "tests/support/testutil.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace glosa;

class TestSettings : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    int m_files = 0;

    // A new application name for each test, so that the file is read afresh rather than from
    // the QSettings cache of the process. `ini` is written where an earlier version kept its INI
    // file (<path>/<organization>/<app>.ini) and carried over into the app's settings file as a
    // start does (installSettingsFile()); that file's path is returned.
    QString freshSettingsFile(const QByteArray &ini)
    {
        const QString iniPath = freshIniFile(ini);
        if (iniPath.isEmpty())
            return {};
        QSettings::setDefaultFormat(QSettings::IniFormat);
        installSettingsFile();
        return QSettings().fileName();
    }
    // The settings file's bytes hold `key` (QDataStream writes a QString as UTF-16BE).
    static bool fileHoldsKey(const QString &path, const QString &key)
    {
        QFile file(path);
        QByteArray utf16;
        for (const QChar c : key)
            utf16 += char(c.unicode() >> 8), utf16 += char(c.unicode() & 0xff);
        return file.open(QIODevice::ReadOnly) && file.readAll().contains(utf16);
    }
    QString freshIniFile(const QByteArray &ini)
    {
        QCoreApplication::setApplicationName(QStringLiteral("tst_settings_%1").arg(++m_files));
        QDir().mkpath(m_settingsDir.filePath(QCoreApplication::organizationName()));
        const QString path =
            m_settingsDir.filePath(QCoreApplication::organizationName() + QLatin1Char('/') +
                                   QCoreApplication::applicationName() + ".ini");
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(ini) != ini.size())
            return {};
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_settingsDir.isValid());
        test::isolateAppState(m_settingsDir.path(), m_dir.path(), QStringLiteral("tst_settings"));
    }

    void readsWhatTheFileHolds()
    {
        const QString path = freshSettingsFile("[translate]\nkeepTerms=Apple\nlive=false\n"
                                               "[compare]\ncolumns=5\n"
                                               "[history]\nmaxMegabytes=1\nmaxEntries=40\n"
                                               "[models]\ndirection\\en-es=opus-en-es\n"
                                               "[inference]\ncomputeType=int8\n");
        QVERIFY(!path.isEmpty());
        QCOMPARE(openSettings()->fileName(), path);
        // INI stores a one-item list as a plain string.
        QCOMPARE(settings::keepTerms.value(), QStringList{QStringLiteral("Apple")});
        QCOMPARE(keptTermsFromSettings(), std::vector<std::string>{"Apple"});
        QCOMPARE(settings::liveTranslate.value(), false);
        QCOMPARE(settings::compareColumns.value(), 5);
        QCOMPARE(settings::directionModel(QStringLiteral("en"), QStringLiteral("es")).value(),
                 QStringLiteral("opus-en-es"));
        QCOMPARE(computeTypeFromSettings(), engine::ComputeType::Int8);
        const HistoryRetention retention = historyRetentionFromSettings();
        QCOMPARE(retention.maxBytes, qint64(1024 * 1024));
        QCOMPARE(retention.maxEntries, qint64(40));
        QCOMPARE(retention.maxAgeDays, 0);
    }

    void absentKeysReadAsTheirDefaults()
    {
        QVERIFY(!freshSettingsFile("[ui]\nlanguage=ko\n").isEmpty());
        QCOMPARE(settings::language.value(), QStringLiteral("ko"));
        QVERIFY(!settings::decoding.isSet());
        QCOMPARE(settings::decodingPreset.value(), QLatin1String(settings::kModelPreset));
        QCOMPARE(settings::liveTranslate.value(), true);
        QCOMPARE(settings::confidence.value(), false);
        QCOMPARE(settings::compareColumns.value(), 3);
        QCOMPARE(settings::historyEnabled.value(), true);
        QCOMPARE(historyRetentionFromSettings().maxBytes,
                 settings::historyMaxMegabytes.defaultValue() * 1024 * 1024);
        QVERIFY(
            settings::directionModel(QStringLiteral("en"), QStringLiteral("es")).value().isEmpty());
        QCOMPARE(computeTypeFromSettings(), engine::ComputeType::Auto);
    }

    // A hand-edited value that names no arithmetic must not stop the app: it is auto.
    void unknownComputeTypeIsAuto()
    {
        QVERIFY(!freshSettingsFile("[inference]\ncomputeType=fast\n").isEmpty());
        QCOMPARE(settings::computeType.value(), QStringLiteral("fast"));
        QCOMPARE(computeTypeFromSettings(), engine::ComputeType::Auto);
    }

    void setAndResetReachTheFile()
    {
        const QString path = freshSettingsFile({});
        QVERIFY(!path.isEmpty());
        settings::compareColumns.setValue(7);
        QVERIFY(settings::compareColumns.isSet());
        QCOMPARE(settings::compareColumns.value(), 7);
        openSettings()->sync();
        QVERIFY2(fileHoldsKey(path, QStringLiteral("compare/columns")), qPrintable(path));
        settings::compareColumns.reset();
        QVERIFY(!settings::compareColumns.isSet());
        QCOMPARE(settings::compareColumns.value(), 3);
        openSettings()->sync();
        QVERIFY(!fileHoldsKey(path, QStringLiteral("compare/columns")));
    }

    // A setting says when it changes (translateLocally's SettingImpl<T>::valueChanged): every
    // Setting<T> of its key, even one made afresh as directionModel() makes them, with the new
    // value; not when the value written is the one it had; and not after its receiver is gone.
    void aChangeIsAnnounced()
    {
        QVERIFY(!freshSettingsFile({}).isEmpty());
        QObject receiver;
        QList<int> columns;
        settings::compareColumns.onChange(&receiver, [&](int value) { columns << value; });
        QStringList models;
        settings::directionModel(QStringLiteral("en"), QStringLiteral("es"))
            .onChange(&receiver, [&](const QString &value) { models << value; });

        settings::compareColumns.setValue(5);
        settings::compareColumns.setValue(5); // unchanged: not announced
        settings::liveTranslate.setValue(false); // another key: not this receiver's
        settings::compareColumns.reset();         // back to the default 3
        settings::compareColumns.reset();         // already there
        QCOMPARE(columns, QList<int>({5, 3}));

        settings::directionModel(QStringLiteral("en"), QStringLiteral("es"))
            .setValue(QStringLiteral("transformer-en-es"));
        QCOMPARE(models, QStringList{QStringLiteral("transformer-en-es")});

        // A change on another thread reaches the receiver on its own thread, queued.
        QThread writer;
        QObject onWriter;
        onWriter.moveToThread(&writer);
        QList<Qt::HANDLE> threads;
        settings::compareColumns.onChange(&receiver,
                                          [&](int) { threads << QThread::currentThreadId(); });
        QSignalSpy announced(&SettingsNotifier::instance(), &SettingsNotifier::changed);
        writer.start();
        QMetaObject::invokeMethod(&onWriter, [] { settings::compareColumns.setValue(9); });
        QVERIFY(announced.wait());
        writer.quit();
        QVERIFY(writer.wait());
        QCoreApplication::processEvents(); // the queued call, posted before the spy saw it
        QCOMPARE(columns, QList<int>({5, 3, 9}));
        QCOMPARE(threads, QList<Qt::HANDLE>{QThread::currentThreadId()});
        settings::liveTranslate.reset();
    }

    void noCallbackOutlivesItsReceiver()
    {
        QVERIFY(!freshSettingsFile({}).isEmpty());
        int calls = 0;
        {
            QObject receiver;
            settings::compareColumns.onChange(&receiver, [&](int) { ++calls; });
            settings::compareColumns.setValue(4);
        }
        settings::compareColumns.setValue(6);
        QCOMPARE(calls, 1);
        settings::compareColumns.reset();
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
