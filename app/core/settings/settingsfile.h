// The settings file: every `QSettings()` of the app and glosa-cli, in a format of our own that a
// failed write never replaces with a cut file.
//
// Why not QSettings' INI format (Qt 6.4, measured on a full 1 MiB tmpfs): it writes through
// QSaveFile, which takes a flush that fails in close() for success, so sync() returned NoError
// after a 3,000-12,000-byte value and renamed an empty file over the settings. A format
// registered with QSettings::registerFormat is handed that QSaveFile as a device; its writer
// here writes the bytes itself to the file's descriptor, fsyncs, and fails on any error, and
// QSettings then drops the temporary file (the old one stays), sets status() to AccessError,
// keeps the values to write at the next sync, and SettingsFileReporter says why.
//
// Reading never trusts the file: lists and maps are read with their depth bounded
// (limits::kMaxSettingsDepth), and a file that cannot be read, or that is a FIFO or a device
// rather than a file, is moved aside as "<file>.damaged" and reported once (resetFound: the GUI's
// status bar, a line on glosa-cli's stderr).
//
// The file: "GLOSA-SETTINGS 1\n", then the key → value map in QDataStream's Qt 6.4 encoding.
// QSettings' INI encoding of values (@Variant, @ByteArray) is private to Qt; a stream gives back
// every QVariant type (window geometry, string lists, preset maps) as it was stored.
//
// Basic usage, once the organization and application names are set, before any QSettings:
//     glosa::installSettingsFile();
//     connect(glosa::SettingsFileReporter::instance(), &SettingsFileReporter::writeFailed, ...);
#pragma once

#include <QList>
#include <QMutex>
#include <QObject>
#include <QString>

namespace glosa {

// Registers the format and makes it QSettings' default. The first time (no settings file of the
// format yet), the values of the file QSettings' default format named until then (the INI
// `Glosa.conf`) are copied into it; that file is left as it was. Safe to call more than once.
void installSettingsFile();

// Tells of writes of the settings file that failed, from whichever thread synced it: queued to
// the reporter's thread's event loop (a slot may use QSettings).
class SettingsFileReporter final : public QObject
{
    Q_OBJECT

public:
    // Created on the first call; call it first on the GUI thread (installSettingsFile() does).
    static SettingsFileReporter *instance();

    // A settings file that could not be read (damaged, nested too deep, a FIFO): QSettings starts
    // from no values, and the file was moved aside to `keptAs` (empty when it could not be).
    struct Reset
    {
        QString fileName, keptAs, reason;
    };
    // Called by the reader, on any thread: stores the reset and emits resetFound() queued.
    void reportReset(const QString &fileName, const QString &keptAs, const QString &reason);
    // The resets found so far, each once (glosa-cli prints them after installSettingsFile()).
    QList<Reset> takeResets();
    // "the settings file F could not be read (R); it was kept as K and the settings start from
    // their defaults": glosa-cli's line (the GUI says it in its own, translated words).
    static QString resetMessage(const Reset &reset);

signals:
    // `reason` is the system's: "No space left on device". The old file is as it was.
    void writeFailed(const QString &fileName, const QString &reason);
    // See Reset. Moved aside, the file is not found again: this comes once.
    void resetFound(const QString &fileName, const QString &keptAs, const QString &reason);

private:
    QMutex m_mutex;
    QList<Reset> m_resets;
};

} // namespace glosa
