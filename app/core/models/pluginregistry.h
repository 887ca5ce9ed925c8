// PluginRegistry: finds the model plugins (plugins/modelplugin.h) and says, for every file it
// looked at, whether it was loaded or why it was rejected.
//
// Basic usage:
//     glosa::PluginRegistry registry;
//     registry.scan();                                   // defaultSearchPaths()
//     for (const glosa::PluginRecord &r : registry.records())
//         qInfo() << r.fileName << (r.isLoaded() ? "loaded" : r.reason);
//     if (const glosa::ModelPluginInterface *p = registry.pluginForArchitecture("transformer"))
//         model = p->load(package);
//
// A file goes through these checks, in order, and stops at the first one that fails:
//   1. it is a shared library carrying Qt plugin metadata        (else NotAPlugin)
//   2. its IID is GlosaModelPluginInterface_iid                   (else WrongIid)
//   3. its JSON metadata has an integer "apiVersion"              (else MissingApiVersion)
//   4. apiVersion == GLOSA_MODEL_PLUGIN_API_VERSION               (else WrongApiVersion)
//   5. no plugin with the same "name" was loaded from an earlier file (else Duplicate)
//   6. QPluginLoader::instance() returns an object                (else InstanceFailed)
//   7. qobject_cast<ModelPluginInterface *> succeeds              (else InterfaceMismatch)
// Checks 1-5 read the metadata from the file without loading it (Qt parses the ELF section), so
// a plugin rejected there never runs any code in our process: an outdated plugin cannot crash us.
//
// Threads: scan() / addFile() on one thread (the GUI thread at start-up); afterwards the const
// lookups and the plugins' load() may be called from worker threads.
//
// Plugins are never unloaded: models they created may outlive the registry, and their code must
// stay mapped while those models exist.
#pragma once

#include "plugins/modelplugin.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace glosa {

struct PluginRecord
{
    enum class Status {
        Loaded,
        NotAPlugin,        // not a library, or a library without Qt plugin metadata
        WrongIid,          // a Qt plugin, but not a Glosa model plugin
        MissingApiVersion, // metadata has no integer "apiVersion"
        WrongApiVersion,   // apiVersion differs from GLOSA_MODEL_PLUGIN_API_VERSION
        Duplicate,         // a plugin with the same name was loaded from an earlier folder
        InstanceFailed,    // the library could not be loaded (e.g. unresolved symbols)
        InterfaceMismatch, // instance() is not a glosa::ModelPluginInterface
    };

    QString fileName; // absolute path of the file
    Status status = Status::NotAPlugin;
    QString reason;      // one line for the user; empty when loaded
    int apiVersion = -1; // from the metadata; -1 when absent
    QString name;        // metadata "name" (empty when not read)
    // Metadata "architectures": what the plugin loads; lookups use this list.
    QStringList architectures;
    QStringList tasks; // metadata "tasks" ("translation", "captioning")
    // Metadata "titles": an architecture's name for people ("rnn-attention" → "RNN with
    // attention"), in English; the one place a family names itself (tools/export_package.py
    // reads the same files).
    QHash<QString, QString> titles;
    // Owned by Qt's plugin loader, valid for the life of the process; null unless loaded.
    ModelPluginInterface *plugin = nullptr;

    bool isLoaded() const { return status == Status::Loaded; }
};

// "loaded", "not a plugin", "wrong IID", ... (stable, untranslated; for logs and the CLI).
QString pluginStatusName(PluginRecord::Status status);

class PluginRegistry
{
public:
    // In priority order (an earlier folder wins when two hold a plugin with the same name):
    // the entries of $GLOSA_PLUGIN_PATH (':'-separated), <dir of the executable>/../plugins
    // (build/plugins for build-tree binaries) and GLOSA_INSTALL_PLUGIN_DIR. Folders that do not
    // exist are left out; duplicates (same canonical path) are listed once.
    static QStringList defaultSearchPaths();

    // Forgets earlier results and examines every regular file in each folder (not recursive,
    // hidden files skipped, files in name order). Folders that do not exist are ignored.
    void scan(const QStringList &folders = defaultSearchPaths());

    // Adds the result of examining one file (also used by scan()). Returns the new record.
    const PluginRecord &addFile(const QString &fileName);

    // The folders given to the last scan(), as passed.
    const QStringList &searchPaths() const { return m_searchPaths; }
    // Every file examined, loaded or not, in scan order.
    const QList<PluginRecord> &records() const { return m_records; }
    // The loaded ones only.
    QList<PluginRecord> loadedPlugins() const;

    // The first loaded plugin that lists `architecture` (model.json "architecture"), or null.
    ModelPluginInterface *pluginForArchitecture(const QString &architecture) const;
    // Same, but the whole record; null when no loaded plugin handles `architecture`.
    const PluginRecord *recordForArchitecture(const QString &architecture) const;

    // The name for people of a model family's architecture, from the metadata "titles" of the
    // plugins any registry of this process has loaded; `architecture` itself when none names it.
    // English: the GUI translates it in context "glosa::Architectures".
    static QString architectureTitle(const QString &architecture);

private:
    QStringList m_searchPaths;
    QList<PluginRecord> m_records;
};

} // namespace glosa
