#include "guiutil.h"

#include "app/core/appcontext.h"
#include "theme.h"

#include <QCoreApplication>
#include <QDir>
#include <QLocale>
#include <QStandardPaths>

namespace glosa {

QString languageName(const QString &code)
{
    const QString base = code.section(QLatin1Char('-'), 0, 0).toLower();
    if (base == QLatin1String("en"))
        return QCoreApplication::translate("glosa::Languages", "English");
    if (base == QLatin1String("es"))
        return QCoreApplication::translate("glosa::Languages", "Spanish");
    if (base == QLatin1String("ko"))
        return QCoreApplication::translate("glosa::Languages", "Korean");
    if (base == QLatin1String("fr"))
        return QCoreApplication::translate("glosa::Languages", "French");
    if (base == QLatin1String("de"))
        return QCoreApplication::translate("glosa::Languages", "German");
    if (base.isEmpty())
        return QCoreApplication::translate("glosa::Languages", "Image");
    const QString name = QLocale(base).nativeLanguageName();
    return name.isEmpty() ? code : name;
}

QString architectureName(const QString &architecture)
{
    if (architecture == QLatin1String("transformer"))
        return QCoreApplication::translate("glosa::Architectures", "Transformer");
    if (architecture == QLatin1String("rnn-attention"))
        return QCoreApplication::translate("glosa::Architectures", "RNN with attention");
    return architecture;
}

QString formatBytes(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

QString documentsFolder()
{
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !documents.isEmpty() && QDir(documents).exists() ? documents : QDir::homePath();
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
    const QString prefix =
        ends ? QCoreApplication::translate("glosa::Steering", "prefix: «%1» + end").arg(words)
             : QCoreApplication::translate("glosa::Steering", "prefix: «%1»").arg(words);
    if (sentences <= 1)
        return prefix;
    return QCoreApplication::translate("glosa::Steering", "sentence %1 · %2")
        .arg(sentence + 1)
        .arg(prefix);
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
