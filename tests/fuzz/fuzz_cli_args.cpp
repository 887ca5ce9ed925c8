// glosa-cli argument parsing: NUL-separated arguments through the real option table and
// conversion of translate/translate-doc/caption (decodingCommandLineOptions,
// decodingOptionsFromCommandLine), then DecodingOptions::validate as a command does before it
// allocates anything. Usage errors are std::invalid_argument; anything else is a finding.
#include "app/cli/modeloptions.h"
#include "tests/fuzz/fuzzutil.h"

#include <QCommandLineParser>
#include <QStringList>

#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    glosa::fuzz::ensureApp();
    QStringList args{QStringLiteral("glosa-cli")};
    for (const QByteArray &arg : QByteArray(reinterpret_cast<const char *>(data), qsizetype(size))
                                     .split('\0'))
        args << QString::fromUtf8(arg);
    QCommandLineParser parser;
    parser.addOptions(glosa::cli::decodingCommandLineOptions());
    if (!parser.parse(args))
        return 0;
    try {
        const glosa::engine::DecodingOptions options =
            glosa::cli::decodingOptionsFromCommandLine(parser, glosa::engine::DecodingOptions());
        options.validate(16000);
    } catch (const std::invalid_argument &) {
    }
    return 0;
}
