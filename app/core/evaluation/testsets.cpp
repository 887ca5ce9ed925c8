#include "app/core/evaluation/testsets.h"

#include "app/core/platform/regularfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <stdexcept>

namespace glosa {

namespace {

// The bundled samples (app/CMakeLists.txt compiles resources/eval into glosa_core).
const QStringList &bundledFiles()
{
    static const QStringList files{QStringLiteral(":/eval/tatoeba-en-es.tsv")};
    return files;
}

std::optional<QByteArray> readBounded(const QString &path, QString *error)
{
    QFile file(path);
    QString why;
    if (!openRegularFile(file, &why)) {
        *error = QStringLiteral("cannot open %1: %2").arg(path, why);
        return std::nullopt;
    }
    if (file.size() > kMaxTestSetBytes) {
        *error = QStringLiteral("%1 is %2 MB, more than the limit of %3 MB for a test set")
                     .arg(path)
                     .arg(file.size() / (1024 * 1024))
                     .arg(kMaxTestSetBytes / (1024 * 1024));
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    if (bytes.size() != file.size()) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    return bytes;
}

// The column of `language` in a TSV whose "# columns:" comment names it, else 0.
int sourceColumn(const QByteArray &tsv, const QString &language)
{
    const std::vector<std::string> languages = engine::tsvColumnLanguages(tsv.toStdString());
    if (languages.size() == 2 && QString::fromStdString(languages[1]) == language)
        return 1;
    return 0;
}

std::optional<engine::TestSet> parse(const QByteArray &tsv, const QString &name,
                                     const QString &sourceLanguage, QString *error)
{
    try {
        return engine::parseTsv(std::string_view(tsv.constData(), std::size_t(tsv.size())),
                                name.toStdString(), sourceColumn(tsv, sourceLanguage));
    } catch (const std::invalid_argument &e) {
        *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

} // namespace

QHash<QString, QStringList> bundledSentencesByLanguage()
{
    QHash<QString, QStringList> sentences;
    for (const QString &path : bundledFiles()) {
        QString error;
        const std::optional<QByteArray> tsv = readBounded(path, &error);
        const std::vector<std::string> languages =
            tsv ? engine::tsvColumnLanguages(tsv->toStdString()) : std::vector<std::string>{};
        if (languages.size() != 2)
            continue;
        const QString source = QString::fromStdString(languages[0]);
        const std::optional<engine::TestSet> set = parse(*tsv, path, source, &error);
        if (!set)
            continue;
        QStringList &a = sentences[source];
        QStringList &b = sentences[QString::fromStdString(languages[1])];
        for (std::size_t i = 0; i < set->size(); ++i) {
            a << QString::fromStdString(set->sources[i]);
            for (const std::string &reference : set->references[i])
                b << QString::fromStdString(reference);
        }
    }
    return sentences;
}

std::optional<engine::TestSet> bundledTestSet(const QString &sourceLanguage,
                                              const QString &targetLanguage, QString *error)
{
    QStringList pairs;
    for (const QString &path : bundledFiles()) {
        QString readError;
        const std::optional<QByteArray> tsv = readBounded(path, &readError);
        if (!tsv) {
            *error = readError;
            return std::nullopt;
        }
        const std::vector<std::string> languages = engine::tsvColumnLanguages(tsv->toStdString());
        if (languages.size() != 2)
            continue;
        const QString a = QString::fromStdString(languages[0]);
        const QString b = QString::fromStdString(languages[1]);
        pairs << a + QLatin1Char('-') + b;
        if ((a == sourceLanguage && b == targetLanguage) ||
            (b == sourceLanguage && a == targetLanguage)) {
            std::optional<engine::TestSet> set =
                parse(*tsv,
                      // In the UI's language: the Evaluate dialog and the history show it (the CLI
                      // installs no translator).
                      QCoreApplication::translate("glosa::TestSets", "%1 (bundled)")
                          .arg(QFileInfo(path).completeBaseName()),
                      sourceLanguage, error);
            return set;
        }
    }
    *error = QStringLiteral("no bundled test set for %1 → %2 (there is one for %3); open a TSV "
                            "or two aligned files")
                 .arg(sourceLanguage, targetLanguage, pairs.join(QStringLiteral(", ")));
    return std::nullopt;
}

std::optional<engine::TestSet> readTsvTestSet(const QString &path, const QString &sourceLanguage,
                                              QString *error)
{
    const std::optional<QByteArray> tsv = readBounded(path, error);
    if (!tsv)
        return std::nullopt;
    return parse(*tsv, QDir::toNativeSeparators(path), sourceLanguage, error);
}

std::optional<engine::TestSet> readAlignedTestSet(const QString &sourcePath,
                                                  const QString &referencePath, QString *error)
{
    const std::optional<QByteArray> sources = readBounded(sourcePath, error);
    if (!sources)
        return std::nullopt;
    const std::optional<QByteArray> references = readBounded(referencePath, error);
    if (!references)
        return std::nullopt;
    try {
        return engine::parseAligned(
            std::string_view(sources->constData(), std::size_t(sources->size())),
            std::string_view(references->constData(), std::size_t(references->size())),
            QDir::toNativeSeparators(sourcePath).toStdString());
    } catch (const std::invalid_argument &e) {
        *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

} // namespace glosa
