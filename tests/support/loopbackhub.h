// LoopbackHub: tests/support/loopback_hub.py started for one test, a Hugging Face hub on
// 127.0.0.1 that serves real folders with the hub's endpoints, redirects to a CDN, ETags and
// Range (see the script for the faults it can inject). Stopped when the object goes.
#pragma once

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>

namespace glosa::test {

class LoopbackHub
{
public:
    // `repos`: "ORG/NAME=FOLDER" each; `faults`: the script's other options.
    explicit LoopbackHub(const QStringList &repos, const QStringList &faults = {})
    {
        QStringList args{QStringLiteral(GLOSA_SOURCE_DIR "/tests/support/loopback_hub.py"),
                         QStringLiteral("--port-file"), m_dir.filePath(QStringLiteral("port")),
                         QStringLiteral("--log"), logPath()};
        for (const QString &repo : repos)
            args << QStringLiteral("--repo") << repo;
        args << faults;
        // Debian's interpreter where it is (the script needs nothing but the standard library)
        const QString python = QFileInfo::exists(QStringLiteral("/usr/bin/python3"))
                                   ? QStringLiteral("/usr/bin/python3")
                                   : QStringLiteral("python3");
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(python, args);
        QElapsedTimer clock;
        clock.start();
        QFile port(m_dir.filePath(QStringLiteral("port")));
        while (clock.elapsed() < 20000 && m_process.state() != QProcess::NotRunning) {
            if (port.open(QIODevice::ReadOnly)) {
                m_port = port.readAll().trimmed().toInt();
                break;
            }
            QThread::msleep(20);
        }
    }
    ~LoopbackHub()
    {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    LoopbackHub(const LoopbackHub &) = delete;
    LoopbackHub &operator=(const LoopbackHub &) = delete;

    bool isRunning() const { return m_port > 0; }
    // What HF_ENDPOINT is set to.
    QString endpoint() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    QString logPath() const { return m_dir.filePath(QStringLiteral("requests.log")); }
    // One line per request: "GET PATH host=HOST auth=yes|no range=RANGE", and the faults.
    QStringList log() const
    {
        QFile file(logPath());
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }
    void clearLog() const { QFile::remove(logPath()); }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    int m_port = 0;
};

} // namespace glosa::test
