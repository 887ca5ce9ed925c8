#include "app/gui/guiutil.h"

#include "app/core/appcontext.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/settings/settings.h"
#include "app/gui/filedialogs.h"
#include "app/gui/livetext.h"
#include "app/gui/theme.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
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

void rememberOpened(OpenedAs kind, const QString &path)
{
    rememberFolder(kind == OpenedAs::Image ? FileKind::Images : FileKind::Documents, path);
    // Stored as "kind|path": a list of strings reads back from any QSettings format.
    const QString entry =
        QString::number(int(kind)) + QLatin1Char('|') + QFileInfo(path).absoluteFilePath();
    QStringList stored = settings::recentFiles.value();
    stored.removeAll(entry);
    stored.prepend(entry);
    settings::recentFiles.setValue(stored.mid(0, kMaxRecentFiles));
}

QList<RecentFile> recentFiles()
{
    QList<RecentFile> recent;
    for (const QString &entry : settings::recentFiles.value()) {
        const int kind = entry.section(QLatin1Char('|'), 0, 0).toInt();
        const QString path = entry.section(QLatin1Char('|'), 1);
        if (kind >= 0 && kind <= int(OpenedAs::Image) && QFileInfo::exists(path))
            recent << RecentFile{OpenedAs(kind), path};
    }
    return recent;
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

QString steeringLabel(const QString &words, bool ends, int sentence, int sentences)
{
    return liveText([=] {
        const QString prefix =
            ends ? QCoreApplication::translate("glosa::Steering", "prefix: «%1» + end").arg(words)
                 : QCoreApplication::translate("glosa::Steering", "prefix: «%1»").arg(words);
        if (sentences <= 1)
            return prefix;
        return QCoreApplication::translate("glosa::Steering", "sentence %1 · %2")
            .arg(sentence + 1)
            .arg(prefix);
    });
}

QString sentenceProgressText(int done, int total, qint64 millisecondsLeft, bool running)
{
    return liveText([=] {
        // The Documents view's strings (it had them first): one translation serves both views.
        QString text = QCoreApplication::translate("glosa::DocumentsView", "%1 / %2 sentences")
                           .arg(done)
                           .arg(total);
        if (!running || done >= total)
            return text;
        if (millisecondsLeft < 0)
            return text + QCoreApplication::translate("glosa::DocumentsView",
                                                      ", estimating the time left…");
        const qint64 seconds = (millisecondsLeft + 500) / 1000;
        const QString left =
            seconds < 60
                ? QCoreApplication::translate("glosa::DocumentsView", "%n s", nullptr, int(seconds))
                : QCoreApplication::translate("glosa::DocumentsView", "%1 min %2 s")
                      .arg(seconds / 60)
                      .arg(seconds % 60);
        return text +
               QCoreApplication::translate("glosa::DocumentsView", ", about %1 left").arg(left);
    });
}

QString omissionToolTip(float mass, float threshold)
{
    return QCoreApplication::translate(
               "glosa::Coverage",
               "Possibly left out of the translation: this word received an attention mass of %1 "
               "over the whole translation of its sentence, below the threshold of %2. Each word "
               "of a translation hands out an attention mass of 1 over the source, so a word it "
               "translated usually gets about 1.")
        .arg(QLocale().toString(mass, 'f', 2), QLocale().toString(threshold, 'f', 2));
}

QTextCharFormat omissionFormat(const QPalette &palette, float mass, float threshold)
{
    QTextCharFormat format;
    format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    format.setUnderlineColor(theme::confidenceColor(palette, 0.0f));
    format.setToolTip(omissionToolTip(mass, threshold));
    return format;
}

} // namespace glosa
