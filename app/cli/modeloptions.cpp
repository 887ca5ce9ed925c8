#include "app/cli/modeloptions.h"

#include "app/core/inference/decodingrequest.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/platform/regularfile.h"
#include "app/core/settings/decodingfieldinfo.h"
#include "app/core/settings/decodingmaps.h"
#include "engine/decoding/decodingfields.h"
#include "engine/limits.h"
#include "engine/text/languagecodes.h"
#include "engine/translation/translationmodel.h"

#include <QCommandLineParser>
#include <QFile>
#include <QLocale>

#include <algorithm>
#include <stdexcept>

namespace glosa::cli {

Installed::Installed()
{
    plugins.scan();
    catalog.scan();
}

std::shared_ptr<engine::Model> loadInstalledModel(const QString &idOrFolder, const QString &task,
                                                  QString *error, ModelInfo *loadedInfo,
                                                  engine::ComputeType computeType)
{
    const Installed installed;
    const PluginRegistry &plugins = installed.plugins;
    const ModelCatalog &catalog = installed.catalog;
    const std::optional<ModelInfo> info = catalog.find(idOrFolder);
    if (!info) {
        *error = QStringLiteral("no model '%1': not an installed model id nor a model folder "
                                "(see 'glosa-cli models')")
                     .arg(shownModelName(idOrFolder));
        return nullptr;
    }
    if (!info->isValid()) {
        *error = QStringLiteral("model '%1' (%2) is broken: %3")
                     .arg(idOrFolder, info->folder, info->error);
        return nullptr;
    }
    if (info->task != task) {
        *error = QStringLiteral("model '%1' (%2) is a %3 model, not a %4 model")
                     .arg(info->id, info->folder, info->task, task);
        return nullptr;
    }
    std::shared_ptr<engine::Model> model = ModelCatalog::load(*info, plugins, error, computeType);
    if (model && loadedInfo)
        *loadedInfo = *info;
    return model;
}

QList<QCommandLineOption> decodingCommandLineOptions()
{
    // The defaults shown are DecodingOptions'; a model package's "decoding" object overrides them
    // (each package's tuned beam size and length penalty: helpForModel() shows those of the
    // chosen model), and the command line overrides both.
    const engine::DecodingOptions defaults;
    QList<QCommandLineOption> options;
    for (const DecodingFieldInfo &info : decodingFieldInfos()) {
        if (!info.isSetting())
            continue;
        const engine::DecodingField &field = info.field();
        QStringList names{QString::fromStdString(field.optionName())};
        if (field.formerName)
            names << QString::fromStdString(field.formerOptionName());
        QCommandLineOption option(names, QString::fromUtf8(info.help),
                                  QString::fromLatin1(info.valueName));
        option.setDefaultValue(
            QString::fromStdString(engine::decodingFieldToText(defaults, field)));
        options << option;
    }
    // The do-not-translate list (keep_terms, not a setting of a preset: a list of the user's).
    options << QCommandLineOption(QStringLiteral("keep"),
                                  QStringLiteral("Copy TERM into the translation as it is (a "
                                                 "product or a name); repeat for more terms."),
                                  QStringLiteral("TERM"))
            << QCommandLineOption(QStringLiteral("keep-file"),
                                  QStringLiteral("Terms to copy as they are, one a line (UTF-8)."),
                                  QStringLiteral("FILE"))
            // truecase: on for a package with a truecase table, so the switch turns it off.
            << QCommandLineOption(QStringLiteral("no-truecase"),
                                  QStringLiteral("Give the model a sentence's first word as "
                                                 "typed (by default a package's truecase table "
                                                 "lower-cases a common word there: \"Hello!\" is "
                                                 "read as \"hello!\")."));
    return options;
}

Command helpForModel(Command help, const QStringList &args)
{
    const auto has = [&](const QString &name) {
        return std::any_of(help.options.begin(), help.options.end(),
                           [&](const QCommandLineOption &o) { return o.names().contains(name); });
    };
    if (!has(QStringLiteral("model")) || !has(QStringLiteral("from")) ||
        !has(QStringLiteral("beam-size")))
        return help; // not a command that translates with a --model/--from/--to choice
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(help.options);
    parser.addOption(QCommandLineOption(QStringList{QStringLiteral("h"), QStringLiteral("help")}));
    parser.parse(QStringList{help.name} + args); // a mistake is reported when the command runs
    if (parser.values("model").size() > 1)
        return help; // evaluate's models: each decodes with its own defaults
    QString error;
    const std::optional<QString> id = modelFromCommandLine(parser, &error);
    const Installed installed;
    const ModelCatalog &catalog = installed.catalog;
    const std::optional<ModelInfo> info = id ? catalog.find(*id) : std::nullopt;
    if (!info || !info->isValid() || !info->is(engine::Task::Translation))
        return help;
    const engine::DecodingOptions defaults = info->decodingDefaults();
    for (QCommandLineOption &option : help.options)
        for (const engine::DecodingField &field : engine::decodingFields())
            if (isDecodingSetting(field) &&
                option.names().first() == QString::fromStdString(field.optionName()))
                option.setDefaultValue(
                    QString::fromStdString(engine::decodingFieldToText(defaults, field)));
    help.description +=
        QStringLiteral("\n\nThe defaults shown are those in effect with %1 (%2), the model "
                       "these options choose%3.")
            .arg(info->id, decodingSummary(defaults),
                 parser.isSet("model") ? QString()
                                       : QStringLiteral(": the default for its direction"));
    return help;
}

const QString &decodingHelpParagraph()
{
    static const QString text = QStringLiteral(
        "Decoding options that are not given take the model package's own settings (its "
        "model.json \"decoding\": the beam size and length penalty chosen for that model on "
        "dev sets), then the defaults shown.");
    return text;
}

QList<QCommandLineOption> modelCommandLineOptions()
{
    return {
        {"model",
         "Model id or package folder (see 'glosa-cli models'); without it, the default "
         "model for --from/--to, else for the system language.",
         "ID_OR_DIR"},
        {"from", "Without --model: the source language (e.g. en, es) of the default model.",
         "LANG"},
        {"to",
         "Without --model: the target language of the default model; with --model, the "
         "language a multi-target model translates into (ISO 639-1 or 639-3: fr, fra).",
         "LANG"},
        {"compute-type",
         "Arithmetic of the model's large layers: auto (int8 where the package stores int8 "
         "weights, else float32), float32, or int8 (quantized at load: about 1.5-3x faster, "
         "output equal to float32 on most sentences).",
         "TYPE", "auto"},
    };
}

std::optional<engine::ComputeType> computeTypeFromCommandLine(const QCommandLineParser &parser,
                                                              QString *error)
{
    try {
        return engine::parseComputeType(parser.value("compute-type").toStdString());
    } catch (const std::invalid_argument &invalid) {
        *error = QString::fromStdString(invalid.what());
        return std::nullopt;
    }
}

namespace {

// `id` translating into `language`: a multi-target model's variant (ModelCatalog::targetVariant),
// or `id` itself when that is its one target language.
std::optional<QString> modelForTargetLanguage(const QString &id, const QString &language,
                                              QString *error)
{
    const Installed installed;
    const std::optional<ModelInfo> info = installed.catalog.find(id);
    if (!info || !info->isValid())
        return id; // loading it says what is wrong
    if (const auto variant = ModelCatalog::targetVariant(*info, language))
        return variant->id;
    if (info->targetLanguages.isEmpty() &&
        engine::sameLanguage(info->targetLanguage.toStdString(), language.toStdString()))
        return id;
    *error = QStringLiteral("model '%1' does not translate into %2 (it translates into %3)")
                 .arg(info->id, language,
                      info->targetLanguages.isEmpty() ? info->targetLanguage
                                                      : info->targetLanguages.join(' '));
    return std::nullopt;
}

} // namespace

std::optional<QString> modelFromCommandLine(const QCommandLineParser &parser, QString *error)
{
    const auto tag = [&](const char *option) {
        return QString::fromStdString(
            engine::normalizedLanguageTag(parser.value(QLatin1String(option)).toStdString()));
    };
    if (parser.isSet("model")) {
        if (parser.isSet("from") || (parser.isSet("to") && parser.value("model").contains('@'))) {
            *error = QStringLiteral("--from and --to choose a model: leave out --model or them "
                                    "(--to with --model only picks a multi-target model's "
                                    "language)");
            return std::nullopt;
        }
        if (parser.isSet("to"))
            return modelForTargetLanguage(parser.value("model"), tag("to"), error);
        return parser.value("model");
    }
    const Installed installed;
    const ModelCatalog &catalog = installed.catalog;
    const QString translation = taskKey(engine::Task::Translation);
    const std::optional<ModelInfo> info =
        parser.isSet("from") || parser.isSet("to")
            ? catalog.defaultModel(translation, parser.isSet("from") ? tag("from") : QString(),
                                   parser.isSet("to") ? tag("to") : QString())
            : catalog.defaultTranslationModel(QLocale::system().uiLanguages());
    if (!info) {
        *error =
            parser.isSet("from") || parser.isSet("to")
                ? QStringLiteral("no translation model from '%1' to '%2' is installed (see "
                                 "'glosa-cli models')")
                      .arg(parser.value("from").isEmpty() ? QStringLiteral("*")
                                                          : parser.value("from"),
                           parser.value("to").isEmpty() ? QStringLiteral("*") : parser.value("to"))
                : QStringLiteral("no translation model is installed (see 'glosa-cli "
                                 "models')");
        return std::nullopt;
    }
    return info->id;
}

namespace {

// The --keep and --keep-file terms, one a line, read within the engine's bounds.
std::string keptTermsFromCommandLine(const QCommandLineParser &parser)
{
    std::string terms;
    for (const QString &term : parser.values("keep"))
        terms += term.toStdString() + '\n';
    if (!parser.isSet("keep-file"))
        return terms;
    const QString path = parser.value("keep-file");
    QFile file(path);
    // Bounded: the most terms of the most bytes the engine accepts, and their lines.
    const qint64 bound =
        qint64(engine::limits::kMaxKeptTerms * (engine::limits::kMaxKeptTermBytes + 2));
    QString why;
    if (!openRegularFile(file, &why))
        throw std::invalid_argument(
            QStringLiteral("--keep-file %1: %2").arg(path, why).toStdString());
    if (file.size() > bound)
        throw std::invalid_argument(QStringLiteral("--keep-file %1: %2 bytes, more than "
                                                   "the limit of %3")
                                        .arg(path)
                                        .arg(file.size())
                                        .arg(bound)
                                        .toStdString());
    return terms + file.read(bound).toStdString();
}

} // namespace

engine::DecodingOptions decodingOptionsFromCommandLine(const QCommandLineParser &parser,
                                                       engine::DecodingOptions defaults)
{
    // The options set on the command line are the person's choices; the request is put together
    // as the app's views put theirs (decodingRequest()), without the app's settings.
    DecodingChoices choices{defaults, {}, defaults.keepTerms};
    for (const engine::DecodingField &field : engine::decodingFields()) {
        const QString name = QString::fromStdString(field.optionName());
        if (!isDecodingSetting(field) || !parser.isSet(name))
            continue;
        try {
            engine::decodingFieldFromText(choices.values, field,
                                          parser.value(name).toStdString());
        } catch (const std::invalid_argument &error) {
            throw std::invalid_argument(
                QStringLiteral("--%1 %2").arg(name, QString::fromUtf8(error.what())).toStdString());
        }
        choices.fields << QLatin1String(field.name);
    }
    if (parser.isSet("keep") || parser.isSet("keep-file")) {
        engine::decodingFieldFromText(choices.values, *engine::findDecodingField("keep_terms"),
                                      keptTermsFromCommandLine(parser));
        choices.keepTerms = choices.values.keepTerms;
    }
    if (parser.isSet("no-truecase")) {
        choices.values.truecase = false;
        choices.fields << QStringLiteral("truecase");
    }
    // A length penalty only acts under GNMT or power normalisation; asking for one asks for GNMT
    // unless the package already uses one of them (an imported MarianMT package: power).
    if (parser.isSet("length-penalty") && !parser.isSet("length-normalization") &&
        defaults.lengthNormalization != engine::LengthNormalization::Power) {
        choices.values.lengthNormalization = engine::LengthNormalization::Gnmt;
        choices.fields << QStringLiteral("length_normalization");
    }
    return decodingRequest(defaults, choices);
}

std::shared_ptr<engine::TranslationModel> loadTranslationModel(const QString &idOrFolder,
                                                               QString *error, ModelInfo *info,
                                                               engine::ComputeType computeType)
{
    std::shared_ptr<engine::Model> model =
        loadInstalledModel(idOrFolder, taskKey(engine::Task::Translation), error, info, computeType);
    auto translation = std::dynamic_pointer_cast<engine::TranslationModel>(model);
    if (model && !translation)
        *error = QStringLiteral("model '%1': its plugin did not give a translation model")
                     .arg(idOrFolder);
    return translation;
}

QCommandLineOption forceLanguageOption()
{
    return QCommandLineOption(
        QStringLiteral("force-language"),
        QStringLiteral("Translate text that looks like another language than the model's source "
                       "(without it, such text is not translated and the exit code is 3)."));
}

namespace {

// "Spanish" for "es": the CLI speaks English.
QString englishLanguageName(const QString &code)
{
    const QLocale locale(code);
    return locale.language() == QLocale::C ? code : QLocale::languageToString(locale.language());
}

} // namespace

LanguageGuard::LanguageGuard(const QCommandLineParser &parser, const ModelInfo &model)
    : m_force(parser.isSet("force-language")), m_model(model)
{
    if (!m_force)
        m_catalog.scan();
}

QString LanguageGuard::check(const QString &text) const
{
    if (m_force)
        return QString();
    const LanguageMismatch mismatch = checkSourceLanguage(
        text, m_model, [this](const QString &source, const QString &target) {
            return m_catalog.defaultModel(taskKey(engine::Task::Translation), source, target);
        });
    if (!mismatch.found())
        return QString();
    const QString looks = QStringLiteral("looks like %1, and %2 translates from %3")
                              .arg(englishLanguageName(mismatch.language), m_model.id,
                                   englishLanguageName(m_model.sourceLanguage));
    if (!mismatch.offer)
        return looks + QStringLiteral(": no installed model translates from %1; "
                                      "--force-language translates it anyway")
                           .arg(englishLanguageName(mismatch.language));
    return looks + QStringLiteral(": use --from %1 --to %2 (%3), or --force-language to "
                                  "translate it anyway")
                       .arg(mismatch.offer->sourceLanguage, mismatch.offer->targetLanguage,
                            mismatch.offer->id);
}

} // namespace glosa::cli
