#include "app/core/uilanguage.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QPointer>
#include <QTranslator>

namespace glosa {

namespace {
// The translators currently installed on the application (ours and Qt's own).
QPointer<QTranslator> g_appTranslator;
QPointer<QTranslator> g_qtTranslator;
QString g_setting;

void uninstall(QPointer<QTranslator> &translator)
{
    if (!translator)
        return;
    QCoreApplication::removeTranslator(translator);
    delete translator;
}

QTranslator *load(const QString &name, const QString &folder)
{
    auto *translator = new QTranslator(qApp);
    if (translator->load(name, folder)) {
        QCoreApplication::installTranslator(translator);
        return translator;
    }
    delete translator;
    return nullptr;
}
} // namespace

QString resolveUiLanguage(const QString &setting)
{
    if (!setting.isEmpty())
        return setting;
    for (const QString &l : QLocale().uiLanguages()) {
        const QString base = l.section(QLatin1Char('-'), 0, 0);
        if (base == QLatin1String("ko") || base == QLatin1String("es") ||
            base == QLatin1String("en"))
            return base;
    }
    return QStringLiteral("en");
}

bool installUiLanguage(const QString &setting)
{
    const QString code = resolveUiLanguage(setting);
    uninstall(g_appTranslator);
    uninstall(g_qtTranslator);
    g_setting = setting;
    // Dates and numbers follow the UI language when one is chosen (12,5 in Spanish); following
    // the system, they follow the system's locale, region included.
    if (!setting.isEmpty())
        QLocale::setDefault(QLocale(code));
    if (code == QLatin1String("en"))
        return true; // the source strings: nothing to install
    g_appTranslator = load(QStringLiteral(":/i18n/glosa_%1.qm").arg(code), QString());
    // Qt's own strings (dialog buttons, context menus), when the system has them.
    g_qtTranslator = load(QStringLiteral("qtbase_%1").arg(code),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    return g_appTranslator;
}

QString installedUiLanguage()
{
    return g_setting;
}

} // namespace glosa
