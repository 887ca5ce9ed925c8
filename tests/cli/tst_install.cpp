// `cmake --install` into a temporary prefix: binaries, plugins, the engine library, bundled
// models, compiled UI translations, launcher and icons land in the standard (FHS/freedesktop)
// places, and the installed glosa-cli — run with no GLOSA_* variables, from a prefix that is not
// the configured one — finds its plugins, models and PDF reader relative to itself and translates.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestInstall : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_prefix.isValid());
        const QString cmake = QStandardPaths::findExecutable(QStringLiteral("cmake"));
        QVERIFY2(!cmake.isEmpty(), "cmake is not on PATH");
        QProcess install;
        install.setProcessChannelMode(QProcess::MergedChannels);
        install.start(cmake, {QStringLiteral("--install"), QStringLiteral(GLOSA_BINARY_DIR),
                              QStringLiteral("--prefix"), m_prefix.path()});
        QVERIFY(install.waitForFinished(120000));
        QVERIFY2(install.exitCode() == 0, install.readAll().constData());
    }

    void filesLandInStandardPlaces_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("executable");
        QTest::newRow("glosa") << "bin/glosa" << true;
        QTest::newRow("glosa-cli") << "bin/glosa-cli" << true;
        QTest::newRow("glosa-pdftext") << "bin/glosa-pdftext" << true;
        QTest::newRow("engine") << "LIB/libglosa_engine.so" << false;
        for (const char *plugin : {"transformer", "rnnattention", "captioner"})
            QTest::newRow(plugin) << QStringLiteral("LIB/glosa/plugins/libglosa_plugin_%1.so")
                                         .arg(QLatin1String(plugin))
                                  << false;
        for (const char *model : {"transformer-en-es", "captioner-en"})
            QTest::newRow(model) << QStringLiteral("share/glosa/models/%1/model.json")
                                        .arg(QLatin1String(model))
                                 << false;
        for (const char *language : {"es", "ko"})
            QTest::newRow(language) << QStringLiteral("share/glosa/translations/glosa_%1.qm")
                                           .arg(QLatin1String(language))
                                    << false;
        QTest::newRow("launcher") << "share/applications/org.glosa.Glosa.desktop" << false;
        QTest::newRow("man page") << "share/man/man1/glosa-cli.1" << false;
        QTest::newRow("icon svg") << "share/icons/hicolor/scalable/apps/org.glosa.Glosa.svg"
                                  << false;
        QTest::newRow("icon png") << "share/icons/hicolor/256x256/apps/org.glosa.Glosa.png"
                                  << false;
    }
    void filesLandInStandardPlaces()
    {
        QFETCH(QString, path);
        QFETCH(bool, executable);
        path.replace(QLatin1String("LIB"), libDir());
        const QFileInfo file(m_prefix.filePath(path));
        QVERIFY2(file.isFile(), qPrintable(path + QStringLiteral(" is missing")));
        QVERIFY(file.size() > 0);
        if (executable)
            QVERIFY(file.isExecutable());
    }

    void launcherNamesTheInstalledBinaryAndIcon()
    {
        QFile desktop(m_prefix.filePath(QStringLiteral("share/applications/org.glosa.Glosa.desktop")));
        QVERIFY(desktop.open(QIODevice::ReadOnly | QIODevice::Text));
        const QString text = QString::fromUtf8(desktop.readAll());
        QVERIFY(text.startsWith(QStringLiteral("[Desktop Entry]")));
        QVERIFY(text.contains(QStringLiteral("\nIcon=org.glosa.Glosa\n")));
        QVERIFY(text.contains(QStringLiteral("\nType=Application\n")));
        const QRegularExpression exec(QStringLiteral("\nExec=(\\S+)"));
        const QRegularExpressionMatch match = exec.match(text);
        QVERIFY(match.hasMatch());
        QCOMPARE(QFileInfo(match.captured(1)).fileName(), QStringLiteral("glosa"));
    }

    void installedCliFindsItsPluginsAndModels()
    {
        const QString models = runCli({QStringLiteral("models")});
        const QString modelDir = QFileInfo(m_prefix.filePath(QStringLiteral("share/glosa/models")))
                                     .canonicalFilePath();
        for (const char *id : {"transformer-en-es", "captioner-en"}) {
            const QStringList lines = models.split(QLatin1Char('\n'));
            const auto line = std::find_if(lines.begin(), lines.end(), [&](const QString &l) {
                return l.startsWith(QLatin1String(id) + QLatin1Char(' '));
            });
            QVERIFY2(line != lines.end(), qPrintable(models));
            QVERIFY2(line->contains(QStringLiteral(" ok ")), qPrintable(*line)); // plugin found
            QVERIFY2(line->contains(modelDir + QLatin1Char('/') + QLatin1String(id)),
                     qPrintable(*line));
        }
        const QString spanish = runCli({QStringLiteral("translate"), QStringLiteral("--model"),
                                        QStringLiteral("transformer-en-es")},
                                       "Where is the station?\n");
        QVERIFY2(spanish.contains(QStringLiteral("estación")), qPrintable(spanish));
    }

    // PDFs are read by the glosa-pdftext helper, found next to the running glosa-cli.
    void installedCliReadsAPdf()
    {
        QTemporaryDir out;
        const QString text = out.filePath(QStringLiteral("sample.es.txt"));
        const QString said = runCli({QStringLiteral("translate-doc"), QStringLiteral("--model"),
                                     QStringLiteral("transformer-en-es"),
                                     QStringLiteral(GLOSA_TEST_DATA_DIR "/documents/sample.pdf"),
                                     QStringLiteral("-o"), text});
        QFile file(text);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(said));
        QVERIFY2(QString::fromUtf8(file.readAll()).contains(QStringLiteral("casa")),
                 qPrintable(said));
    }

    // Without --model, the default package for the system language's direction translates:
    // transformer-general-en-es and transformer-general-es-en declare "default": true (the RNNs
    // and the Tatoeba-only transformer-en-es and transformer-es-en come first by name).
    void installedCliUsesTheDefaultModelForTheSystemLanguage_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("model");
        QTest::newRow("English system") << "en_US.UTF-8" << QStringList() << "transformer-general-en-es";
        QTest::newRow("Spanish system") << "es_ES.UTF-8" << QStringList()
                                         << "transformer-general-es-en";
        QTest::newRow("Korean system, no ko model: from English")
            << "ko_KR.UTF-8" << QStringList() << "transformer-general-en-es";
        QTest::newRow("--from es")
            << "en_US.UTF-8" << QStringList{"--from", "es"} << "transformer-general-es-en";
        QTest::newRow("--to es") << "es_ES.UTF-8" << QStringList{"--to", "es"}
                                 << "transformer-general-en-es";
    }
    void installedCliUsesTheDefaultModelForTheSystemLanguage()
    {
        QFETCH(QString, locale);
        QFETCH(QStringList, arguments);
        QFETCH(QString, model);
        const QString out =
            runCli(QStringList{QStringLiteral("translate"), QStringLiteral("--json")} + arguments,
                   "Hola.\n",
                   {{QStringLiteral("LC_ALL"), locale}, {QStringLiteral("LANGUAGE"), QString()}});
        QVERIFY2(out.contains(QStringLiteral("\"model\":\"%1\"").arg(model)), qPrintable(out));
    }

    // `glosa --help` and `--version` need no display (no X server, no QT_QPA_PLATFORM).
    void installedGuiPrintsHelpWithoutADisplay()
    {
        for (const char *flag : {"--help", "--version"}) {
            QProcess glosa;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
                env.remove(QLatin1String(name));
            glosa.setProcessEnvironment(env);
            glosa.start(m_prefix.filePath(QStringLiteral("bin/glosa")), {QLatin1String(flag)});
            QVERIFY(glosa.waitForFinished(60000));
            const QString out = QString::fromUtf8(glosa.readAllStandardOutput());
            QVERIFY2(glosa.exitStatus() == QProcess::NormalExit && glosa.exitCode() == 0,
                     qPrintable(out + QString::fromUtf8(glosa.readAllStandardError())));
            QVERIFY2(out.contains(qstrcmp(flag, "--help") == 0 ? QStringLiteral("--model")
                                                               : QStringLiteral(GLOSA_VERSION)),
                     qPrintable(out));
        }
    }

private:
    // CMAKE_INSTALL_LIBDIR: "lib", or "lib/<multiarch>" for a /usr prefix on Debian.
    QString libDir() const
    {
        for (const QString &candidate : QDir(m_prefix.path()).entryList({QStringLiteral("lib*")},
                                                                        QDir::Dirs))
            for (const QString &dir : {candidate, candidate + QStringLiteral("/x86_64-linux-gnu"),
                                       candidate + QStringLiteral("/aarch64-linux-gnu")})
                if (QFileInfo::exists(m_prefix.filePath(dir + QStringLiteral("/glosa/plugins"))))
                    return dir;
        return QStringLiteral("lib");
    }

    QString runCli(const QStringList &arguments, const QByteArray &input = {},
                   const QList<std::pair<QString, QString>> &variables = {})
    {
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"GLOSA_PLUGIN_PATH", "GLOSA_MODEL_PATH", "GLOSA_DATA"})
            env.remove(QLatin1String(name));
        for (const auto &[name, value] : variables)
            env.insert(name, value);
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path()); // no user-installed models
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        cli.setProcessEnvironment(env);
        cli.start(m_prefix.filePath(QStringLiteral("bin/glosa-cli")), arguments);
        cli.write(input);
        cli.closeWriteChannel();
        if (!cli.waitForFinished(120000))
            return QStringLiteral("(timed out)");
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        if (cli.exitCode() != 0)
            return out + QString::fromUtf8(cli.readAllStandardError());
        return out;
    }

    QTemporaryDir m_prefix;
    QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestInstall)
#include "tst_install.moc"
