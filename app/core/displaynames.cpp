#include "app/core/displaynames.h"

#include "app/core/appcontext.h"
#include "app/core/models/pluginregistry.h"

#include <QCoreApplication>
#include <QLocale>

#include <unicode/locid.h>
#include <unicode/unistr.h>

namespace glosa {

QString languageName(const QString &code)
{
    const QString base = code.section(QLatin1Char('-'), 0, 0).toLower();
    if (base.isEmpty())
        return QCoreApplication::translate("glosa::Languages", "Image");
    // The language the interface is in, as its translation says (Qt's own trick for
    // QT_LAYOUT_DIRECTION): the names follow the words around them, not the system's locale,
    // which may be one we have no translation for. ICU's CLDR data names every language in every
    // interface language, so a package of a new language pair needs no name written here.
    const QString ui = QCoreApplication::translate(
        "glosa::Languages", "en", "the code (ISO 639-1) of the language this translation is in");
    icu::UnicodeString name;
    icu::Locale(base.toLatin1().constData())
        .getDisplayLanguage(icu::Locale(ui.toLatin1().constData()), name);
    QString text = QString::fromUtf16(reinterpret_cast<const char16_t *>(name.getBuffer()),
                                      name.length());
    if (text.isEmpty() || text == base)
        return code; // a code ICU does not know: the code is all there is
    // As a title ("Inglés", not CLDR's "inglés"): the name heads a pane and starts a menu entry.
    text[0] = text[0].toUpper();
    return text;
}

QString architectureName(const QString &architecture)
{
    // The family names itself in its plugin's metadata ("titles"); the bundled families' names
    // are listed here for lupdate only, so that they read translated.
    [[maybe_unused]] static const char *const bundled[] = {
        QT_TRANSLATE_NOOP("glosa::Architectures", "Transformer"),
        QT_TRANSLATE_NOOP("glosa::Architectures", "RNN with attention"),
        QT_TRANSLATE_NOOP("glosa::Architectures", "Show, Attend and Tell"),
    };
    const QByteArray title = PluginRegistry::architectureTitle(architecture).toUtf8();
    return QCoreApplication::translate("glosa::Architectures", title.constData());
}

QString modelName(const ModelInfo &info)
{
    // The bundled packages' names, for lupdate; translate() finds them by the name itself.
    [[maybe_unused]] static const char *const bundled[] = {
        QT_TRANSLATE_NOOP("glosa::ModelNames",
                          "English image captions (Show, Attend and Tell on MobileNetV2)"),
        QT_TRANSLATE_NOOP("glosa::ModelNames", "English → Spanish (RNN, Bahdanau attention)"),
        QT_TRANSLATE_NOOP("glosa::ModelNames", "English → Spanish (RNN, Luong attention)"),
        QT_TRANSLATE_NOOP("glosa::ModelNames",
                          "English → Spanish (RNN, Luong attention, general domain)"),
        QT_TRANSLATE_NOOP("glosa::ModelNames", "English → Spanish (RNN without attention)"),
        QT_TRANSLATE_NOOP("glosa::ModelNames", "English → German (Transformer, Tatoeba)"),
        QT_TRANSLATE_NOOP("glosa::ModelNames", "English → Spanish (Transformer, Tatoeba)"),
        QT_TRANSLATE_NOOP("glosa::ModelNames", "Spanish → English (Transformer, Tatoeba)"),
        QT_TRANSLATE_NOOP("glosa::ModelNames", "English → Spanish (Transformer, general domain)"),
        QT_TRANSLATE_NOOP("glosa::ModelNames", "Spanish → English (Transformer, general domain)"),
    };
    return QCoreApplication::translate("glosa::ModelNames", info.name.toUtf8().constData());
}

QString formatBytes(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

QString unavailableText(const ModelChoice &choice)
{
    using Status = ModelChoice::Status;
    if (choice.isReady())
        return QString();
    if (choice.task == AppContext::kCaptioning)
        return QCoreApplication::translate(
            "glosa::ModelChoice", "No captioning model is installed. Install a "
                                  "captioning package (Help ▸ Models…) to caption images.");
    switch (choice.status) {
    case Status::NoneInstalled:
        return QCoreApplication::translate("glosa::ModelChoice",
                                           "No translation model is installed. Use File ▸ Import "
                                           "model… to add a model package.");
    case Status::PluginMissing:
        return QCoreApplication::translate("glosa::ModelChoice",
                                           "The “%1” model family is not installed, so %2 cannot "
                                           "run.")
            .arg(choice.model->architecture, choice.model->name);
    case Status::NoneUsable:
    case Status::Ready:
        break;
    }
    return QCoreApplication::translate("glosa::ModelChoice",
                                       "No usable translation model is installed (see Help ▸ "
                                       "Models… for why).");
}

} // namespace glosa
