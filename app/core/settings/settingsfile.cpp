#include "app/core/settings/settingsfile.h"

#include "app/core/limits.h"
#include "app/core/platform/handoff.h"
#include "engine/regularfile.h"

#include <QCoreApplication>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QFileDevice>
#include <QFileInfo>
#include <QSettings>

#include <QMutexLocker>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <utility>

#include <sys/stat.h>
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

// Moves `name` aside as name.damaged (a copy where it cannot be moved) and reports it once.
void keepAside(const QString &name, const QString &reason)
{
    const QString kept = name + QStringLiteral(".damaged");
    QFile::remove(kept);
    const bool keptCopy = QFile::rename(name, kept) || QFile::copy(name, kept);
    SettingsFileReporter::instance()->reportReset(name, keptCopy ? kept : QString(), reason);
}

// QVariant's own stream operator reads a list inside a list by recursion, as deep as the file
// says. Containers are read here instead, counting their depth; any other value is handed to
// QVariant's operator when its type is one that holds no other value, and refused otherwise.
class GuardedReader
{
public:
    explicit GuardedReader(QDataStream &in) : m_in(in) {}
    QString refused; // why the stream was refused, or empty

    bool readMap(QVariantMap &map, int depth)
    {
        quint32 count = 0;
        m_in >> count;
        for (quint32 i = 0; i < count && m_in.status() == QDataStream::Ok; ++i) {
            QString key;
            QVariant value;
            m_in >> key;
            if (!readVariant(value, depth))
                return false;
            map.insert(key, value);
        }
        return m_in.status() == QDataStream::Ok;
    }

private:
    bool readVariant(QVariant &value, int depth)
    {
        const qint64 start = m_in.device()->pos();
        quint32 type = 0;
        qint8 isNull = 0;
        m_in >> type >> isNull;
        if (m_in.status() != QDataStream::Ok)
            return false;
        if (type == QMetaType::QVariantList || type == QMetaType::QVariantMap ||
            type == QMetaType::QVariantHash) {
            if (depth >= limits::kMaxSettingsDepth) {
                refused = QStringLiteral("values nest deeper than the limit of %1")
                              .arg(limits::kMaxSettingsDepth);
                return false;
            }
            return readContainer(type, value, depth + 1);
        }
        if (!holdsNoValues(type)) {
            refused = QStringLiteral("a value of type %1, which Glosa does not store").arg(type);
            return false;
        }
        m_in.device()->seek(start);
        m_in >> value;
        return m_in.status() == QDataStream::Ok;
    }
    bool readContainer(quint32 type, QVariant &value, int depth)
    {
        if (type == QMetaType::QVariantMap) {
            QVariantMap map;
            const bool ok = readMap(map, depth);
            value = map;
            return ok;
        }
        quint32 count = 0;
        m_in >> count;
        QVariantList list;
        QVariantHash hash;
        for (quint32 i = 0; i < count && m_in.status() == QDataStream::Ok; ++i) {
            QString key;
            if (type == QMetaType::QVariantHash)
                m_in >> key;
            QVariant item;
            if (!readVariant(item, depth))
                return false;
            if (type == QMetaType::QVariantHash)
                hash.insert(key, item);
            else
                list.append(item);
        }
        value = type == QMetaType::QVariantHash ? QVariant(hash) : QVariant(list);
        return m_in.status() == QDataStream::Ok;
    }
    // Types whose stream holds no QVariant inside it.
    static bool holdsNoValues(quint32 type)
    {
        static constexpr QMetaType::Type kFlat[] = {
            QMetaType::UnknownType,    QMetaType::Bool,        QMetaType::Int,
            QMetaType::UInt,           QMetaType::LongLong,    QMetaType::ULongLong,
            QMetaType::Double,         QMetaType::Float,       QMetaType::QChar,
            QMetaType::QString,        QMetaType::QStringList, QMetaType::QByteArray,
            QMetaType::QByteArrayList, QMetaType::QBitArray,   QMetaType::QDate,
            QMetaType::QTime,          QMetaType::QDateTime,   QMetaType::QUrl,
            QMetaType::QLocale,        QMetaType::QRect,       QMetaType::QRectF,
            QMetaType::QSize,          QMetaType::QSizeF,      QMetaType::QLine,
            QMetaType::QLineF,         QMetaType::QPoint,      QMetaType::QPointF,
            QMetaType::QUuid,          QMetaType::Long,        QMetaType::Short,
            QMetaType::Char,           QMetaType::ULong,       QMetaType::UShort,
            QMetaType::UChar,          QMetaType::SChar};
        return std::find(std::begin(kFlat), std::end(kFlat), QMetaType::Type(type)) !=
               std::end(kFlat);
    }

    QDataStream &m_in;
};

// Why `bytes` are not a settings file, or empty (and `map` filled).
QString parseSettings(const QByteArray &bytes, QSettings::SettingsMap &map)
{
    const QByteArrayView magic(kMagic);
    if (!bytes.startsWith(magic))
        return QStringLiteral("not a Glosa settings file");
    QDataStream in(bytes.sliced(magic.size()));
    in.setVersion(kStreamVersion);
    GuardedReader reader(in);
    if (!reader.readMap(map, 0) || !in.atEnd())
        return reader.refused.isEmpty() ? QStringLiteral("damaged") : reader.refused;
    return {};
}

bool readSettings(QIODevice &device, QSettings::SettingsMap &map)
{
    const QString refused = parseSettings(device.readAll(), map);
    if (refused.isEmpty())
        return true;
    // QSettings reports FormatError and starts from no values; the damaged file is moved aside
    // so that whoever wants to can look at it, and so that it is reported once, not at every
    // read until the next write replaces it.
    map.clear();
    const QString name = deviceFileName(device);
    if (!name.isEmpty())
        keepAside(name, refused);
    return false;
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

// QSettings opens its files with a blocking open(2): a FIFO in their place (or a device) hung
// every start. The user's own files (the application's and the organization's) are looked at
// first, without opening them; anything but a regular file is moved aside like a damaged one.
// Their paths come from a QSettings of names that have no files, which opens nothing.
void moveAsideSpecialFiles(QSettings::Format format)
{
    const QSettings probe(format, QSettings::UserScope, QStringLiteral("glosa-settings-probe"),
                          QStringLiteral("probe"));
    const QFileInfo probeFile(probe.fileName()); // <path>/glosa-settings-probe/probe.settings
    const QString path = probeFile.dir().absolutePath().section(QLatin1Char('/'), 0, -2);
    const QString organization = QCoreApplication::organizationName();
    const QString suffix = QLatin1Char('.') + probeFile.suffix();
    for (const QString &name : {path + QLatin1Char('/') + organization + QLatin1Char('/') +
                                    QCoreApplication::applicationName() + suffix,
                                path + QLatin1Char('/') + organization + suffix}) {
        struct stat status{};
        if (::lstat(QFile::encodeName(name).constData(), &status) != 0 || S_ISREG(status.st_mode))
            continue;
        if (S_ISLNK(status.st_mode) && QFileInfo(name).isFile())
            continue; // a link to a regular file: the user's dotfiles, read as they are
        keepAside(name, QString::fromStdString("not a regular file (" +
                                               engine::fileKindName(status.st_mode) + ")"));
    }
}

} // namespace

SettingsFileReporter *SettingsFileReporter::instance()
{
    static SettingsFileReporter reporter;
    return &reporter;
}

void SettingsFileReporter::reportReset(const QString &fileName, const QString &keptAs,
                                       const QString &reason)
{
    {
        const QMutexLocker lock(&m_mutex);
        m_resets.append({fileName, keptAs, reason});
    }
    // Queued: QSettings may hold its file's lock here (see writeSettings).
    postCall(this, [this, fileName, keptAs, reason] { emit resetFound(fileName, keptAs, reason); });
}

QList<SettingsFileReporter::Reset> SettingsFileReporter::takeResets()
{
    const QMutexLocker lock(&m_mutex);
    return std::exchange(m_resets, {});
}

QString SettingsFileReporter::resetMessage(const Reset &reset)
{
    return reset.keptAs.isEmpty()
               ? QStringLiteral("the settings file %1 could not be read (%2); the settings start "
                                "from their defaults")
                     .arg(reset.fileName, reset.reason)
               : QStringLiteral("the settings file %1 could not be read (%2); it was kept as %3 "
                                "and the settings start from their defaults")
                     .arg(reset.fileName, reset.reason, reset.keptAs);
}

void installSettingsFile()
{
    SettingsFileReporter::instance();
    const QSettings::Format previous = QSettings::defaultFormat();
    const QSettings::Format format = settingsFormat();
    if (previous == format)
        return;
    QSettings::setDefaultFormat(format);
    moveAsideSpecialFiles(format);
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
