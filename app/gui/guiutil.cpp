#include "guiutil.h"

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

} // namespace glosa
