#include "app/cli/help.h"

#include <QCommandLineParser>
#include <QRegularExpression>
#include <QTextStream>

namespace glosa::cli {

namespace {

// "--beam-size N" / "-o, --output OUT"
QString optionSpec(const QCommandLineOption &option)
{
    QStringList names;
    for (const QString &name : option.names())
        names << (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
    QString spec = names.join(QStringLiteral(", "));
    if (!option.valueName().isEmpty())
        spec += QLatin1Char(' ') + option.valueName();
    return spec;
}

QString optionText(const QCommandLineOption &option)
{
    QString text = option.description();
    if (!option.defaultValues().isEmpty())
        text += QStringLiteral(" [default: %1]").arg(option.defaultValues().join(QLatin1Char(',')));
    return text;
}

// `text` folded at `width` columns, every line after the first indented by `indent`.
QString wrapped(const QString &text, int indent, int width = 100)
{
    QString out, line;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && indent + line.size() + 1 + word.size() > width) {
            out += line + QLatin1Char('\n') + QString(indent, QLatin1Char(' '));
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    return out + line;
}

QString paragraphs(const QString &text, int indent)
{
    QStringList out;
    for (const QString &p : text.split(QStringLiteral("\n\n")))
        out << QString(indent, QLatin1Char(' ')) + wrapped(p, indent);
    return out.join(QStringLiteral("\n\n"));
}

// man(7) text: backslashes and leading dots or quotes escaped, hyphens of options kept literal.
QString roff(QString text)
{
    text.replace(QLatin1Char('\\'), QStringLiteral("\\e"));
    text.replace(QLatin1Char('-'), QStringLiteral("\\-"));
    static const QRegularExpression lineStart(QStringLiteral("^([.'])"),
                                              QRegularExpression::MultilineOption);
    text.replace(lineStart, QStringLiteral("\\&\\1"));
    return text;
}

const QList<QCommandLineOption> &globalOptions()
{
    static const QList<QCommandLineOption> options = {
        {"history",
         "The history database that --save-history writes and `history` reads (the app's own "
         "is the default).",
         "PATH"},
        {{"h", "help"}, "Print this help, or a command's (glosa-cli COMMAND --help), and exit."},
        {"version", "Print the version and exit."},
    };
    return options;
}

} // namespace

const QList<Command> &commands()
{
    static const QList<Command> table = {modelsCommand(),  translateCommand(),
                                         translateDocCommand(), captionCommand(),
                                         evaluateCommand(), historyCommand()};
    return table;
}

bool parseCommandLine(QCommandLineParser &parser, const Command &command,
                      const QStringList &args, QTextStream &err, bool positionalArguments)
{
    parser.addOptions(command.options);
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli ") + command.name} + args)) {
        err << "glosa-cli " << command.name << ": " << parser.errorText() << "\n";
        return false;
    }
    if (!positionalArguments && !parser.positionalArguments().isEmpty()) {
        err << "glosa-cli " << command.name << ": unexpected argument '"
            << parser.positionalArguments().first() << "'\n";
        return false;
    }
    return true;
}

const Command *findCommand(const QString &name)
{
    for (const Command &command : commands())
        if (command.name == name)
            return &command;
    return nullptr;
}

QString generalHelpText()
{
    QString text = QStringLiteral("Usage: glosa-cli [--history PATH] COMMAND [options]\n\n"
                                  "Glosa's offline translator, captioner and history on the "
                                  "command line.\n\nCommands:\n");
    for (const Command &help : commands())
        text += QStringLiteral("  %1%2\n").arg(help.name.leftJustified(15), help.summary);
    text += QStringLiteral("\nGlobal options:\n");
    for (const QCommandLineOption &option : globalOptions())
        text += QStringLiteral("  %1%2\n")
                    .arg(optionSpec(option).leftJustified(16), wrapped(optionText(option), 18));
    text += QStringLiteral("\nExamples:\n");
    for (const Command &help : commands())
        text += QStringLiteral("  %1\n").arg(help.examples.value(0));
    text += QLatin1Char('\n') +
            wrapped(QStringLiteral("'glosa-cli help COMMAND' or 'glosa-cli COMMAND --help' shows "
                                   "a command's options and their defaults; 'man glosa-cli' "
                                   "all of it."),
                    0) +
            QLatin1Char('\n');
    return text;
}

QString commandHelpText(const Command &help)
{
    QString text =
        QStringLiteral("Usage: glosa-cli %1 %2\n\n%3\n\n%4\n")
            .arg(help.name, help.synopsis, help.summary, paragraphs(help.description, 0));
    if (!help.options.isEmpty()) {
        text += QStringLiteral("\nOptions:\n");
        int width = 0;
        for (const QCommandLineOption &option : help.options)
            width = std::max(width, int(optionSpec(option).size()));
        width = std::min(width + 2, 28);
        for (const QCommandLineOption &option : help.options) {
            const QString spec = optionSpec(option);
            text += QStringLiteral("  ") + spec;
            text += spec.size() + 2 > width
                        ? QLatin1Char('\n') + QString(width + 2, QLatin1Char(' '))
                        : QString(width - spec.size(), QLatin1Char(' '));
            text += wrapped(optionText(option), width + 2) + QLatin1Char('\n');
        }
    }
    text += QStringLiteral("\nExamples:\n");
    for (const QString &example : help.examples)
        text += QStringLiteral("  ") + example + QLatin1Char('\n');
    return text;
}

QString manPage()
{
    QString page = QStringLiteral(".TH GLOSA\\-CLI 1 \"\" \"Glosa %1\" \"User Commands\"\n"
                                  ".SH NAME\nglosa\\-cli \\- offline translation, image captions "
                                  "and history from the command line\n"
                                  ".SH SYNOPSIS\n.B glosa\\-cli\n[\\-\\-history PATH] COMMAND "
                                  "[options]\n.SH DESCRIPTION\n")
                       .arg(QStringLiteral(GLOSA_VERSION));
    page +=
        roff(QStringLiteral("Glosa translates text and documents and captions photos with "
                            "neural models that run on this computer; nothing leaves the "
                            "machine. The graphical application is glosa (see glosa --help).\n"));
    page += QStringLiteral(".SH GLOBAL OPTIONS\n");
    for (const QCommandLineOption &option : globalOptions())
        page += QStringLiteral(".TP\n.B %1\n%2\n")
                    .arg(roff(optionSpec(option)), roff(optionText(option)));
    for (const Command &help : commands()) {
        page += QStringLiteral(".SH COMMAND: %1\n.B glosa\\-cli %1\n%2\n.PP\n%3\n")
                    .arg(roff(help.name), roff(help.synopsis), roff(help.summary));
        for (const QString &p : help.description.split(QStringLiteral("\n\n")))
            page += QStringLiteral(".PP\n") + roff(p) + QLatin1Char('\n');
        for (const QCommandLineOption &option : help.options)
            page += QStringLiteral(".TP\n.B %1\n%2\n")
                        .arg(roff(optionSpec(option)), roff(optionText(option)));
        page += QStringLiteral(".PP\nExamples:\n.RS\n.nf\n");
        for (const QString &example : help.examples)
            page += roff(example) + QLatin1Char('\n');
        page += QStringLiteral(".fi\n.RE\n");
    }
    page += QStringLiteral(".SH EXIT STATUS\n0 on success, 1 when a model, file or entry "
                           "fails, 2 for a usage error, 130 after Ctrl+C.\n"
                           ".SH SEE ALSO\nglosa(1)\n");
    return page;
}

} // namespace glosa::cli
