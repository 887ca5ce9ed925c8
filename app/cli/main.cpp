// glosa-cli: the command-line face of Glosa. Every command prints a one-line message on stderr
// and exits with a non-zero code on failure.
#include "app/cli/bytenames.h"
#include "app/cli/help.h"
#include "app/cli/historycommand.h"
#include "app/cli/modeloptions.h"
#include "app/core/platform/openmpsetup.h"
#include "app/core/settings/settingsfile.h"

#include <QCoreApplication>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>

namespace {

int usage(QTextStream &err)
{
    err << "usage: glosa-cli [--history PATH] COMMAND [options]\n"
           "commands:\n";
    for (const glosa::cli::Command &help : glosa::cli::commands())
        err << "  " << help.name.leftJustified(15) << help.summary << "\n";
    err << "'glosa-cli --help' tells more.\n";
    return 2;
}

bool isHelpFlag(const QString &arg)
{
    return arg == QLatin1String("--help") || arg == QLatin1String("-h");
}

int run(QStringList args, QTextStream &err)
{
    const std::optional<QString> historyPath = glosa::cli::takeHistoryOption(args, err);
    if (!historyPath)
        return 2;
    if (args.size() < 2)
        return usage(err);
    const QString command = args.at(1);
    // Help goes to stdout and exits 0: `--help`, `help [COMMAND]`, `COMMAND --help`, and
    // `help --man` (the man page, written by the build).
    if (isHelpFlag(command) || command == QLatin1String("help")) {
        QTextStream out(stdout);
        const QString topic = command == QLatin1String("help") ? args.value(2) : QString();
        if (topic == QLatin1String("--man")) {
            out << glosa::cli::manPage();
        } else if (topic.isEmpty()) {
            out << glosa::cli::generalHelpText();
        } else if (const glosa::cli::Command *help = glosa::cli::findCommand(topic)) {
            out << glosa::cli::commandHelpText(glosa::cli::helpForModel(*help, args.mid(3)));
        } else {
            err << "glosa-cli help: unknown command '" << topic << "'\n";
            return usage(err);
        }
        return 0;
    }
    if (command == QLatin1String("--version")) {
        QTextStream(stdout) << "glosa-cli " << GLOSA_VERSION << "\n"
                            << QString::fromStdString(glosa::openMpDescription()) << "\n";
        return 0;
    }
    if (const glosa::cli::Command *found = glosa::cli::findCommand(command)) {
        const QStringList rest = args.mid(2);
        QTextStream out(stdout);
        // Before "--", and not a value: `history search -h` looks for nothing else anyway.
        if (std::any_of(rest.begin(), std::find(rest.begin(), rest.end(), QStringLiteral("--")),
                        isHelpFlag)) {
            // With the defaults of the model the same options would choose.
            out << glosa::cli::commandHelpText(glosa::cli::helpForModel(*found, rest));
            return 0;
        }
        return found->run(rest, {*historyPath, out, err});
    }
    err << "glosa-cli: unknown command '" << command << "'\n";
    return usage(err);
}

} // namespace

int main(int argc, char *argv[])
{
    glosa::setUpOpenMp(argv);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("Glosa"));
    QCoreApplication::setOrganizationName(QStringLiteral("Glosa"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GLOSA_VERSION));
    glosa::installSettingsFile();
    // Arguments that name files by bytes that are not UTF-8 are opened by those bytes, and
    // messages print such names escaped (bytenames.h).
    const glosa::cli::ByteNames names(argc, argv);
    glosa::cli::ByteNameEscaper stderrDevice(names);
    QTextStream err(&stderrDevice);
    for (const auto &reset : glosa::SettingsFileReporter::instance()->takeResets())
        err << "glosa-cli: " << glosa::SettingsFileReporter::resetMessage(reset) << "\n";
    // The commands report the errors they expect; anything else (out of memory, a library's
    // exception) becomes one line and exit code 1 here instead of std::terminate's SIGABRT.
    try {
        return run(names.arguments(), err);
    } catch (const std::bad_alloc &) {
        err << "glosa-cli: out of memory (the input is too large for this machine)\n";
    } catch (const std::exception &error) {
        err << "glosa-cli: " << QString::fromLocal8Bit(error.what()) << "\n";
    } catch (...) {
        err << "glosa-cli: an unknown error stopped the command\n";
    }
    return 1;
}
