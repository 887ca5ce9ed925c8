#include "app/cli/bytenames.h"

#include "engine/text/unicode.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <sys/stat.h>
#include <unistd.h>

namespace glosa::cli {

namespace {

const QString kFolderPrefix = QStringLiteral("glosa-names-");

bool isUtf8(const QByteArray &bytes)
{
    return engine::findInvalidUtf8({bytes.constData(), std::size_t(bytes.size())}) ==
           std::string_view::npos;
}

} // namespace

QString escapedFileName(const QByteArray &bytes)
{
    QString out;
    std::string_view rest(bytes.constData(), std::size_t(bytes.size()));
    for (;;) {
        const std::size_t bad = engine::findInvalidUtf8(rest);
        out += QString::fromUtf8(rest.data(), qsizetype(std::min(bad, rest.size())));
        if (bad == std::string_view::npos)
            return out;
        out += QStringLiteral("\\x%1").arg(uint(uchar(rest[bad])), 2, 16, QLatin1Char('0'));
        rest.remove_prefix(bad + 1);
    }
}

ByteNames::ByteNames(int argc, char **argv)
{
    for (int i = 0; i < argc; ++i) {
        const QByteArray bytes(argv[i]);
        struct stat info{};
        if (isUtf8(bytes) || ::lstat(argv[i], &info) != 0) {
            // Not a file by its bytes (an output still to be made, a word): as Qt reads it, but
            // printed escaped ("cannot open caf\xe9.txt").
            m_arguments << (isUtf8(bytes) ? QString::fromUtf8(bytes) : escapedFileName(bytes));
            continue;
        }
        if (m_folder.isEmpty()) {
            QByteArray pattern = QFile::encodeName(QDir::tempPath() + QLatin1Char('/') +
                                                   kFolderPrefix + QStringLiteral("XXXXXX"));
            if (::mkdtemp(pattern.data()))
                m_folder = pattern;
        }
        // The target absolute, by its bytes; one subfolder per argument (two "caf\xe9.txt" in
        // different folders).
        QByteArray target = bytes;
        if (!target.startsWith('/')) {
            char *cwd = ::getcwd(nullptr, 0);
            target = QByteArray(cwd ? cwd : ".") + '/' + bytes;
            std::free(cwd);
        }
        const QByteArray sub = m_folder + '/' + QByteArray::number(i);
        const int slash = bytes.lastIndexOf('/');
        const QByteArray link = sub + '/' + escapedFileName(bytes.mid(slash + 1)).toUtf8();
        if (m_folder.isEmpty() || ::mkdir(sub.constData(), 0700) != 0 ||
            ::symlink(target.constData(), link.constData()) != 0) {
            m_arguments << escapedFileName(bytes);
            continue;
        }
        m_shown.append({link, escapedFileName(bytes).toUtf8()});
        m_arguments << QString::fromUtf8(link);
    }
}

ByteNames::~ByteNames()
{
    for (const auto &[link, shown] : m_shown) {
        ::unlink(link.constData());
        ::rmdir(link.left(link.lastIndexOf('/')).constData());
    }
    if (!m_folder.isEmpty())
        ::rmdir(m_folder.constData());
}

QByteArray ByteNames::shown(QByteArray text) const
{
    for (const auto &[link, name] : m_shown)
        text.replace(link, name);
    return text;
}

bool ByteNames::isLink(const QString &path)
{
    // <temp>/glosa-names-XXXXXX/<argument number>/<escaped name>
    const QFileInfo info(path);
    const QFileInfo folder(QFileInfo(info.absolutePath()).absolutePath());
    return info.isSymLink() && folder.fileName().startsWith(kFolderPrefix) &&
           folder.absolutePath() == QDir::tempPath();
}

ByteNameEscaper::ByteNameEscaper(const ByteNames &names) : m_names(names)
{
    open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

qint64 ByteNameEscaper::writeData(const char *data, qint64 size)
{
    const QByteArray text = m_names.shown(QByteArray(data, size));
    std::fwrite(text.constData(), 1, std::size_t(text.size()), stderr);
    std::fflush(stderr);
    return size;
}

} // namespace glosa::cli
