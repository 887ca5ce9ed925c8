#include "app/core/settings/settingsfile.h"

#include "app/core/platform/handoff.h"

#include <QCoreApplication>
#include <QDataStream>
#include <QFile>
#include <QFileDevice>
#include <QFileInfo>
#include <QSettings>

#include <cerrno>

#include <unistd.h>

namespace glosa {

namespace {

constexpr char kMagic[] = "GLOSA-SETTINGS 1\n";
constexpr QDataStream::Version kStreamVersion = QDataStream::Qt_6_4;

QString deviceFileName(const QIODevice &device)
{
    const auto *file = qobject_cast<const QFileDevice *>(&device);
    return file ? file->fileName() : QString();
}

bool readSettings(QIODevice &device, QSettings::SettingsMap &map)
{
    const QByteArray bytes = device.readAll();
    const QByteArrayView magic(kMagic);
    bool ok = false;
    if (bytes.startsWith(magic)) {
        QDataStream in(bytes.sliced(magic.size()));
        in.setVersion(kStreamVersion);
        in >> map;
        ok = in.status() == QDataStream::Ok && in.atEnd();
    }
    if (!ok) {
        // QSettings reports FormatError and starts from no values; its next write would replace
        // the damaged file, so a copy is kept for whoever wants to look at it.
        map.clear();
        const QString name = deviceFileName(device);
        if (!name.isEmpty())
            QFile::copy(name, name + QStringLiteral(".damaged"));
    }
    return ok;
}

// Writes `bytes` through `device`'s descriptor and fsyncs it: the first failure's errno, or 0.
// QFileDevice's own write and flush are passed over: a short write with ENOSPC and a flush
// failing in close() do not reach QSettings through them.
int writeAndSync(QIODevice &device, const QByteArray &bytes)
{
    auto *file = qobject_cast<QFileDevice *>(&device);
    const int fd = file ? file->handle() : -1;
    if (fd < 0) // not a plain file (no such device is handed to us in Qt 6.4): Qt's write is all
        return device.write(bytes) == bytes.size() ? 0 : EIO;
    const char *data = bytes.constData();
    qsizetype left = bytes.size();
    while (left > 0) {
        const ssize_t written = ::write(fd, data, size_t(left));
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        data += written; // a short write: the next one says why (ENOSPC) or goes on
        left -= written;
    }
    return ::fsync(fd) == 0 ? 0 : errno;
}

bool writeSettings(QIODevice &device, const QSettings::SettingsMap &map)
{
    QByteArray bytes(kMagic);
    {
        QByteArray stream;
        QDataStream out(&stream, QIODevice::WriteOnly);
        out.setVersion(kStreamVersion);
        out << map;
        bytes += stream;
    }
    const int error = writeAndSync(device, bytes);
    if (error == 0)
        return true;
    // Queued: QSettings holds its file's lock here, so a slot that used QSettings would wait
    // for itself.
    SettingsFileReporter *reporter = SettingsFileReporter::instance();
    postCall(reporter, [reporter, name = deviceFileName(device), reason = qt_error_string(error)] {
        emit reporter->writeFailed(name, reason);
    });
    return false; // QSettings removes the temporary file: the old one stays
}

QSettings::Format settingsFormat()
{
    static const QSettings::Format format =
        QSettings::registerFormat(QStringLiteral("settings"), readSettings, writeSettings);
    return format;
}

} // namespace

SettingsFileReporter *SettingsFileReporter::instance()
{
    static SettingsFileReporter reporter;
    return &reporter;
}

void installSettingsFile()
{
    SettingsFileReporter::instance();
    const QSettings::Format previous = QSettings::defaultFormat();
    const QSettings::Format format = settingsFormat();
    if (previous == format)
        return;
    QSettings::setDefaultFormat(format);
    QSettings settings;
    if (QFileInfo::exists(settings.fileName()))
        return;
    QSettings old(previous, QSettings::UserScope, QCoreApplication::organizationName(),
                  QCoreApplication::applicationName());
    old.setFallbacksEnabled(false); // the user's own file, not /etc/xdg's
    if (!QFileInfo::exists(old.fileName()))
        return;
    for (const QString &key : old.allKeys())
        settings.setValue(key, old.value(key));
    settings.sync(); // a failure is reported, and the copy is tried again at the next start
}

} // namespace glosa
