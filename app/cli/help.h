// Help for glosa-cli: one CommandHelp per command, printed by `glosa-cli --help`,
// `glosa-cli help COMMAND` and `glosa-cli COMMAND --help`, and turned into the installed man page
// (`glosa-cli help --man`, run by the build). The commands parse their arguments with the same
// options list, so the help cannot drift from what is accepted.
#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

namespace glosa::cli {

struct CommandHelp
{
    QString name;                      // "translate"
    QString synopsis;                  // arguments after "glosa-cli NAME"
    QString summary;                   // one line, for the list of commands
    QString description;               // paragraphs separated by "\n\n"
    QList<QCommandLineOption> options; // a default value, when set, is printed with the option
    QStringList examples;              // command lines, each optionally followed by "  # comment"
};

// Every command, in the order `glosa-cli --help` lists them.
QList<CommandHelp> commandHelps();
// nullptr when `name` is no command.
const CommandHelp *findCommandHelp(const QString &name);

// `glosa-cli --help`: what glosa-cli is, the global options, the commands, examples.
QString generalHelpText();
// `glosa-cli help NAME`: usage, description, every option with its default, examples.
QString commandHelpText(const CommandHelp &help);
// The man page glosa-cli(1) in troff (man(7) macros): everything above in one page.
QString manPage();

} // namespace glosa::cli
