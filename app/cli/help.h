// glosa-cli's command table: one Command per command, {name, help, options, run}, each made by
// its own file (app/cli/<name>command.cpp) and listed once in commands(). main() dispatches
// through it; `glosa-cli --help`, `glosa-cli help COMMAND`, `glosa-cli COMMAND --help` and the
// installed man page (`glosa-cli help --man`, run by the build) print it. The commands parse their
// arguments with the same options list, so the help cannot drift from what is accepted.
#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

class QCommandLineParser;
class QTextStream;

namespace glosa::cli {

// What a command runs with: the global --history value and the two streams.
struct CommandIo
{
    QString historyPath;
    QTextStream &out;
    QTextStream &err;
};

struct Command
{
    QString name;                      // "translate"
    QString synopsis;                  // arguments after "glosa-cli NAME"
    QString summary;                   // one line, for the list of commands
    QString description;               // paragraphs separated by "\n\n"
    QList<QCommandLineOption> options; // a default value, when set, is printed with the option
    QStringList examples;              // command lines, each optionally followed by "  # comment"
    // Runs the command on the arguments after its name; the process's exit code (2: usage).
    int (*run)(const QStringList &args, const CommandIo &io) = nullptr;
};

// One per command file.
Command modelsCommand();
Command translateCommand();
Command translateDocCommand();
Command captionCommand();
Command evaluateCommand();
Command historyCommand();

// Parses `args` (after the command's name) with `command`'s options into `parser` (set up by the
// caller, e.g. its single-dash mode); on a mistake, or a positional argument where the command
// takes none, prints "glosa-cli NAME: <reason>" on `err` and returns false (exit code 2).
bool parseCommandLine(QCommandLineParser &parser, const Command &command,
                      const QStringList &args, QTextStream &err, bool positionalArguments);

// Every command, in the order `glosa-cli --help` lists them.
const QList<Command> &commands();
// nullptr when `name` is no command.
const Command *findCommand(const QString &name);

// `glosa-cli --help`: what glosa-cli is, the global options, the commands, examples.
QString generalHelpText();
// `glosa-cli help NAME`: usage, description, every option with its default, examples.
QString commandHelpText(const Command &help);
// The man page glosa-cli(1) in troff (man(7) macros): everything above in one page.
QString manPage();

} // namespace glosa::cli
