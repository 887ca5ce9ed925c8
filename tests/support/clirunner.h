// Runs the real build/bin/glosa-cli for the tests that drive it as a user would.
#pragma once

#include <QByteArray>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <utility>

namespace glosa::test {

struct CliRun
{
    int exitCode = -1; // -1: did not start or timed out; -2: crashed
    QByteArray out;
    QByteArray err;

    QList<QByteArray> lines() const
    {
        QList<QByteArray> result = out.split('\n');
        if (!result.isEmpty() && result.last().isEmpty())
            result.removeLast();
        return result;
    }
};

// `process` set up to run the real glosa-cli with the variables in `env` set (GLOSA_PLUGIN_PATH,
// GLOSA_MODEL_PATH, ...). HOME and the XDG folders point into a private temporary folder so that
// the user's own models, settings and history stay out of the test. For tests that watch the
// process while it runs (progress lines, signals); runGlosaCli() below is the common case.
// `unset`: variables of the test's own environment the process should not see (before `env`).
inline void prepareGlosaCli(QProcess &process, const QList<std::pair<QString, QString>> &env,
                            const QStringList &unset = {})
{
    static QTemporaryDir home;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &name : unset)
        environment.remove(name);
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home.path() + QStringLiteral("/data"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + QStringLiteral("/config"));
    environment.insert(QStringLiteral("HOME"), home.path());
    for (const auto &[name, value] : env)
        environment.insert(name, value);
    process.setProcessEnvironment(environment);
    process.setProgram(QStringLiteral(GLOSA_BINARY_DIR "/bin/glosa-cli"));
}

// glosa-cli `args` with `input` on stdin, prepared as prepareGlosaCli() says; waits for it.
inline CliRun runGlosaCli(const QStringList &args,
                          const QList<std::pair<QString, QString>> &env = {},
                          const QByteArray &input = {}, int timeoutMs = 300000,
                          const QStringList &unset = {})
{
    QProcess process;
    prepareGlosaCli(process, env, unset);
    process.setArguments(args);
    process.start();
    CliRun run;
    if (!process.waitForStarted(10000))
        return run;
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

} // namespace glosa::test
