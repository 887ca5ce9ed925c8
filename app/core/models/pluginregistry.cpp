#include "app/core/models/pluginregistry.h"

#include "app/core/platform/executabledir.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QPluginLoader>

#include <mutex>
#include <optional>

namespace glosa {

namespace {

// The titles of every plugin loaded in this process (architectureTitle()): a plugin stays loaded
// for the life of the process, and the model picker asks without a registry at hand.
QHash<QString, QString> &knownTitles()
{
    static QHash<QString, QString> titles;
    return titles;
}
std::mutex &titlesMutex()
{
    static std::mutex mutex;
    return mutex;
}


QStringList stringList(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &v : value.toArray())
        if (v.isString())
            out << v.toString();
    return out;
}

// QPluginLoader's message when it has none of its own.
bool isUsefulError(const QString &error)
{
    return !error.isEmpty() && error != QLatin1String("Unknown error");
}

// Why a file is not loaded as a plugin.
struct Rejection
{
    PluginRecord::Status status;
    QString reason;
};

// The file's Qt plugin metadata into `record`: its IID, name, families, tasks, their titles and
// the plugin API version. Reading the metadata parses the file's .qtmetadata section; it does
// not dlopen() it, so nothing from the plugin runs until instantiate().
std::optional<Rejection> readMetaData(QPluginLoader &loader, PluginRecord &record)
{
    const QJsonObject metaData = loader.metaData();
    if (metaData.isEmpty()) {
        const QString why = loader.errorString();
        return Rejection{PluginRecord::Status::NotAPlugin,
                         isUsefulError(why)
                             ? QStringLiteral("not a plugin: %1").arg(why)
                             : QStringLiteral("not a plugin: no Qt plugin metadata")};
    }

    const QString iid = metaData.value(QLatin1String("IID")).toString();
    if (iid != QLatin1String(GlosaModelPluginInterface_iid))
        return Rejection{PluginRecord::Status::WrongIid,
                         QStringLiteral("wrong IID \"%1\", expected \"%2\"")
                             .arg(iid, QLatin1String(GlosaModelPluginInterface_iid))};

    const QJsonObject json = metaData.value(QLatin1String("MetaData")).toObject();
    record.name = json.value(QLatin1String("name")).toString();
    record.architectures = stringList(json.value(QLatin1String("architectures")));
    record.tasks = stringList(json.value(QLatin1String("tasks")));
    const QJsonObject titles = json.value(QLatin1String("titles")).toObject();
    for (auto it = titles.begin(); it != titles.end(); ++it)
        if (it.value().isString() && record.architectures.contains(it.key()))
            record.titles.insert(it.key(), it.value().toString());

    // JSON numbers are doubles: 1.5 or "1" must not pass as version 1.
    const QJsonValue version = json.value(QLatin1String("apiVersion"));
    if (!version.isDouble() || version.toDouble() != double(version.toInt()))
        return Rejection{PluginRecord::Status::MissingApiVersion,
                         version.isUndefined()
                             ? QStringLiteral("metadata missing apiVersion")
                             : QStringLiteral("metadata apiVersion is not an integer")};
    record.apiVersion = version.toInt();
    if (record.apiVersion != GLOSA_MODEL_PLUGIN_API_VERSION)
        return Rejection{PluginRecord::Status::WrongApiVersion,
                         QStringLiteral("apiVersion %1, expected %2")
                             .arg(record.apiVersion)
                             .arg(GLOSA_MODEL_PLUGIN_API_VERSION)};
    return std::nullopt;
}

// The same plugin is often present twice (build tree and install dir, or a file and its
// versioned symlink): the folder searched first wins and the later copy is never loaded.
std::optional<Rejection> duplicate(const PluginRecord &record, const QList<PluginRecord> &loaded)
{
    const QString key = record.name.isEmpty() ? QFileInfo(record.fileName).fileName() : record.name;
    for (const PluginRecord &other : loaded) {
        if (!other.isLoaded())
            continue;
        const QString otherKey =
            other.name.isEmpty() ? QFileInfo(other.fileName).fileName() : other.name;
        if (otherKey == key)
            return Rejection{
                PluginRecord::Status::Duplicate,
                QStringLiteral("plugin \"%1\" already loaded from %2").arg(key, other.fileName)};
    }
    return std::nullopt;
}

// Loads the plugin (its code runs from here on) and takes its model interface into `record`.
std::optional<Rejection> instantiate(QPluginLoader &loader, PluginRecord &record)
{
    QObject *instance = loader.instance();
    if (!instance)
        return Rejection{PluginRecord::Status::InstanceFailed,
                         QStringLiteral("instance() failed: %1").arg(loader.errorString())};
    auto *plugin = qobject_cast<ModelPluginInterface *>(instance);
    if (!plugin)
        return Rejection{PluginRecord::Status::InterfaceMismatch,
                         QStringLiteral("qobject_cast to glosa::ModelPluginInterface failed "
                                        "(class %1 does not declare the interface)")
                             .arg(QLatin1String(instance->metaObject()->className()))};
    record.plugin = plugin;
    return std::nullopt;
}

} // namespace

QString pluginStatusName(PluginRecord::Status status)
{
    switch (status) {
    case PluginRecord::Status::Loaded:
        return QStringLiteral("loaded");
    case PluginRecord::Status::NotAPlugin:
        return QStringLiteral("not a plugin");
    case PluginRecord::Status::WrongIid:
        return QStringLiteral("wrong IID");
    case PluginRecord::Status::MissingApiVersion:
        return QStringLiteral("missing apiVersion");
    case PluginRecord::Status::WrongApiVersion:
        return QStringLiteral("wrong apiVersion");
    case PluginRecord::Status::Duplicate:
        return QStringLiteral("duplicate");
    case PluginRecord::Status::InstanceFailed:
        return QStringLiteral("instance() failed");
    case PluginRecord::Status::InterfaceMismatch:
        return QStringLiteral("qobject_cast failed");
    }
    return QStringLiteral("unknown");
}

QStringList PluginRegistry::defaultSearchPaths()
{
    QStringList candidates;
    const QString env = qEnvironmentVariable("GLOSA_PLUGIN_PATH");
    candidates << env.split(QDir::listSeparator(), Qt::SkipEmptyParts);
    const QString exeDir = executableDir();
    if (!exeDir.isEmpty()) {
        candidates << exeDir + QStringLiteral("/../plugins");
        // An installed tree moved elsewhere (cmake --install --prefix, a relocated package):
        // bin/ and lib/glosa/plugins keep their places relative to each other.
        candidates << exeDir + QStringLiteral("/../" GLOSA_INSTALL_PLUGIN_RELDIR);
    }
    candidates << QStringLiteral(GLOSA_INSTALL_PLUGIN_DIR);

    QStringList out;
    QStringList seen; // canonical paths, so that a folder reached twice is scanned once
    for (const QString &candidate : candidates) {
        const QFileInfo info(candidate);
        if (!info.isDir())
            continue;
        const QString canonical = info.canonicalFilePath();
        if (seen.contains(canonical))
            continue;
        seen << canonical;
        out << QDir::cleanPath(info.absoluteFilePath());
    }
    return out;
}

void PluginRegistry::scan(const QStringList &folders)
{
    m_searchPaths = folders;
    m_records.clear();
    for (const QString &folder : folders) {
        const QDir dir(folder);
        if (!dir.exists())
            continue;
        const QFileInfoList files =
            dir.entryInfoList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name);
        // Shared libraries only: a plugin folder may hold other files (the build tree's has
        // CMake's *.cmake), and those are not plugins that failed.
        for (const QFileInfo &file : files)
            if (QLibrary::isLibrary(file.fileName()))
                addFile(file.absoluteFilePath());
    }
}

const PluginRecord &PluginRegistry::addFile(const QString &fileName)
{
    PluginRecord record;
    record.fileName = QDir::cleanPath(QFileInfo(fileName).absoluteFilePath());
    auto reject = [&](PluginRecord::Status status, const QString &reason) -> const PluginRecord & {
        record.status = status;
        record.reason = reason;
        m_records.append(record);
        return m_records.constLast();
    };

    if (!QFileInfo(record.fileName).isFile())
        return reject(PluginRecord::Status::NotAPlugin, QStringLiteral("not a regular file"));
    if (!QLibrary::isLibrary(record.fileName))
        return reject(PluginRecord::Status::NotAPlugin,
                      QStringLiteral("not a plugin: not a shared library file name"));

    QPluginLoader loader(record.fileName);
    std::optional<Rejection> rejected = readMetaData(loader, record);
    if (!rejected)
        rejected = duplicate(record, m_records);
    if (!rejected)
        rejected = instantiate(loader, record);
    if (rejected)
        return reject(rejected->status, rejected->reason);

    record.status = PluginRecord::Status::Loaded;
    {
        const std::lock_guard lock(titlesMutex());
        for (auto it = record.titles.cbegin(); it != record.titles.cend(); ++it)
            knownTitles().insert(it.key(), it.value());
    }
    m_records.append(record);
    return m_records.constLast();
}

QString PluginRegistry::architectureTitle(const QString &architecture)
{
    const std::lock_guard lock(titlesMutex());
    return knownTitles().value(architecture, architecture);
}

QList<PluginRecord> PluginRegistry::loadedPlugins() const
{
    QList<PluginRecord> out;
    for (const PluginRecord &record : m_records)
        if (record.isLoaded())
            out << record;
    return out;
}

const PluginRecord *PluginRegistry::recordForArchitecture(const QString &architecture) const
{
    for (const PluginRecord &record : m_records)
        if (record.isLoaded() && record.architectures.contains(architecture))
            return &record;
    return nullptr;
}

ModelPluginInterface *PluginRegistry::pluginForArchitecture(const QString &architecture) const
{
    const PluginRecord *record = recordForArchitecture(architecture);
    return record ? record->plugin : nullptr;
}

} // namespace glosa
