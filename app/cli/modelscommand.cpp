#include "app/cli/modelsmanage.h"

#include "app/core/modelcatalog.h"
#include "app/core/modelimport.h"

#include <QCommandLineParser>

namespace glosa::cli {

namespace {

bool parse(QCommandLineParser &parser, const QString &command, const QStringList &args,
           int positional, QTextStream &err)
{
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli models ") + command} + args)) {
        err << "glosa-cli models " << command << ": " << parser.errorText() << "\n";
        return false;
    }
    if (parser.positionalArguments().size() != positional) {
        err << "glosa-cli models " << command << ": expected "
            << (command == QLatin1String("import") ? "a folder" : "a model id") << "\n";
        return false;
    }
    return true;
}

} // namespace

int runModelsImportCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.addOptions({{"float32", "Keep float32 weights (default: int8, a quarter of the size)."},
                       {"id", "The package id (default: the folder name).", "ID"},
                       {"from", "Source language, when the folder does not say.", "LANG"},
                       {"to", "Target language, when the folder does not say.", "LANG"}});
    if (!parse(parser, QStringLiteral("import"), args, 1, err))
        return 2;
    ModelImportRequest request;
    request.folder = parser.positionalArguments().first();
    request.float32 = parser.isSet("float32");
    request.id = parser.value("id");
    request.sourceLanguage = parser.value("from");
    request.targetLanguage = parser.value("to");
    const ModelImportResult result = importModelFolder(request);
    if (!result.ok()) {
        err << "glosa-cli models import: " << result.error << "\n";
        return 1;
    }
    out << "imported " << result.id << " into " << result.folder << "\n";
    return 0;
}

int runModelsRemoveCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    if (!parse(parser, QStringLiteral("remove"), args, 1, err))
        return 2;
    const QString id = parser.positionalArguments().first();
    QString folder, error;
    if (!removeImportedModel(id, &folder, &error)) {
        err << "glosa-cli models remove: " << error << "\n";
        return 1;
    }
    out << "removed " << id << " (" << folder << ")\n";
    return 0;
}

int runModelsDefaultCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    if (!parse(parser, QStringLiteral("default"), args, 1, err))
        return 2;
    const QString id = parser.positionalArguments().first();
    ModelCatalog catalog;
    catalog.scan();
    const std::optional<ModelInfo> info = catalog.find(id);
    if (!info || !info->isValid() || !info->shadowedBy.isEmpty() || info->id != id) {
        err << "glosa-cli models default: no usable model with id '" << id
            << "' ('glosa-cli models' lists them)\n";
        return 1;
    }
    QString error;
    if (!ModelCatalog::setUserDefault(*info, &error)) {
        err << "glosa-cli models default: " << error << "\n";
        return 1;
    }
    out << id << " is now the default for "
        << (info->sourceLanguage.isEmpty() ? QString()
                                           : info->sourceLanguage + QStringLiteral(" -> "))
        << info->targetLanguage << "\n";
    return 0;
}

} // namespace glosa::cli
