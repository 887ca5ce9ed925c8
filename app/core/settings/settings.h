// The app's settings (QSettings), each one a Setting<T> with its key and its default in one place,
// so that every read site gets the same default. The GUI's window layout, last model, UI language
// and decoding are here; the history's are in app/core/history/retention.h.
#pragma once

#include "engine/package.h"

#include <QByteArray>
#include <QObject>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVariantMap>

#include <memory>
#include <string>
#include <vector>

namespace glosa {

// Every QSettings the app, glosa-cli and the tests open (the organisation and application names
// main() sets, the default format): one place, so that the settings file's format is chosen once.
std::unique_ptr<QSettings> openSettings();

// Says which setting a Setting<T> of this process changed (setValue(), reset()), so that what
// shows a setting follows it wherever it was changed. One for the process: a Setting<T> is a
// constant, and settings::directionModel() makes one per call, so the key is what identifies it.
// Use Setting<T>::onChange() rather than this.
class SettingsNotifier : public QObject
{
    Q_OBJECT
public:
    static SettingsNotifier &instance();
signals:
    // Emitted on the thread that wrote, after the write; queued to receivers on other threads.
    void changed(const QString &key);
};

// One stored value: its key, its type and the value it reads as while the settings file has none
// (after the manner of translateLocally's SettingImpl<T>, change signal included). Each read or
// write opens the settings, as the QSettings() at each former read site did, so any thread may
// use it.
template <typename T> class Setting
{
public:
    Setting(QString key, T defaultValue = T())
        : m_key(std::move(key)), m_default(std::move(defaultValue))
    {
    }
    Setting(const char *key, T defaultValue = T())
        : Setting(QString::fromLatin1(key), std::move(defaultValue))
    {
    }

    const QString &key() const { return m_key; }
    const T &defaultValue() const { return m_default; }
    // A stored value of another type converts as QVariant does (the INI format stores text).
    T value() const
    {
        return openSettings()->value(m_key, QVariant::fromValue(m_default)).template value<T>();
    }
    // Writes the value; onChange() callbacks run when it differs from what was read before.
    void setValue(const T &value) const
    {
        const T before = this->value();
        openSettings()->setValue(m_key, QVariant::fromValue(value));
        if (!(before == value))
            emit SettingsNotifier::instance().changed(m_key);
    }
    bool isSet() const { return openSettings()->contains(m_key); }
    // Back to the default: the key leaves the settings file (a change when the value differed).
    void reset() const
    {
        const T before = value();
        openSettings()->remove(m_key);
        if (!(before == m_default))
            emit SettingsNotifier::instance().changed(m_key);
    }
    // Calls `onChanged(T newValue)` each time this setting changes through any Setting<T> of its
    // key in this process, on `context`'s thread, until `context` is destroyed. A change written
    // to the file by another process is not seen.
    template <typename F>
    QMetaObject::Connection onChange(const QObject *context, F onChanged) const
    {
        return QObject::connect(&SettingsNotifier::instance(), &SettingsNotifier::changed, context,
                                [setting = *this, onChanged](const QString &key) {
                                    if (key == setting.key())
                                        onChanged(setting.value());
                                });
    }

private:
    QString m_key;
    T m_default;
};

namespace settings {
// Window and splitter layout, saved on close and restored on start (MainWindow).
inline const Setting<QByteArray> windowGeometry{"window/geometry"};
inline const Setting<QByteArray> windowState{"window/state"};
inline const Setting<int> currentTab{"window/tab", 0};
inline const Setting<QByteArray> translateSplitter{"translate/splitter"};
inline const Setting<QByteArray> translateEditors{"translate/editors"};
// Editors over attention, and attention over candidates.
inline const Setting<QByteArray> translateVertical{"translate/vertical"};
inline const Setting<QByteArray> translateAttention{"translate/attention"};
inline const Setting<QString> lastModel{"models/last"};
inline const Setting<QVariantMap> decoding{"decoding/current"}; // decodingOptionsToMap()
// The preset the Translate view's decoding panel starts on: a preset's name, kModelPreset for the
// model package's "decoding" defaults, or "" when the settings are custom (then `decoding`).
inline constexpr char kModelPreset[] = ":model";
inline const Setting<QString> decodingPreset{"decoding/preset", QString::fromLatin1(kModelPreset)};
inline const Setting<QVariantMap> presets{"decoding/presets"}; // user presets: name → options map
inline const Setting<int> compareColumns{"compare/columns", 3};
// Where the last file dialog of any kind left off: what a kind of file with no folder of its own
// yet starts in (it was the only one before there was one per kind).
inline const Setting<QString> lastFolder{"files/lastFolder"};
// Where the next file dialog for each kind of file starts: the folder of the last one chosen.
enum class FileKind {
    Documents, // texts and documents opened, test sets
    Images,    // photos to caption
    Models,    // model folders to import
    Exports,   // translations, documents and the history written out
};
const Setting<QString> &lastFolderOf(FileKind kind);
inline const Setting<QStringList> recentFiles{"files/recent"}; // "kind|path", newest first
inline const Setting<QString> language{"ui/language"};         // "" follows the system locale
inline const Setting<QString> appearance{"ui/appearance"};     // "system", "light" or "dark"
// engine::computeTypeName(): "auto" (int8 where a package stores it), "float32" or "int8".
inline const Setting<QString> computeType{"inference/computeType"};
inline const Setting<bool> confidence{"translate/confidence", false};
inline const Setting<bool> liveTranslate{"translate/live", true};
// The do-not-translate list (Settings ▸ Do not translate; DecodingOptions::keepTerms).
inline const Setting<QStringList> keepTerms{"translate/keepTerms"};

// The model the user last picked for a direction (AppContext::modelForDirection).
Setting<QString> directionModel(const QString &source, const QString &target);
} // namespace settings

// The arithmetic models are loaded with (Settings ▸ Arithmetic; glosa-cli's --compute-type). A
// value that is not one of the names is auto.
engine::ComputeType computeTypeFromSettings();

// The do-not-translate list the user keeps in Settings, for every translation the app makes.
std::vector<std::string> keptTermsFromSettings();

} // namespace glosa
