#include "app/core/documents/ziparchive.h"

#include "app/core/documents/document.h"
#include "app/core/limits.h"

#include <QBuffer>

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>

namespace glosa::documents {

bool isSafeMemberName(const QString &name)
{
    // Backslashes count as separators too: some unzip tools take them for folders.
    QString path = name;
    path.replace(QLatin1Char('\\'), QLatin1Char('/'));
    if (path.isEmpty() || path.startsWith(QLatin1Char('/')) ||
        (path.size() >= 2 && path.at(1) == QLatin1Char(':')))
        return false;
    for (const QStringView part : QStringView(path).split(QLatin1Char('/')))
        if (part == QLatin1String(".."))
            return false;
    return true;
}

std::vector<ZipEntry> readZip(const QByteArray &bytes, const QString &label)
{
    QByteArray copy = bytes;
    QBuffer buffer(&copy);
    QuaZip zip(&buffer);
    if (!zip.open(QuaZip::mdUnzip))
        throw DocumentError(QStringLiteral("%1 is corrupt: not a readable zip archive (error %2)")
                                .arg(label)
                                .arg(zip.getZipError()));
    std::vector<ZipEntry> entries;
    std::int64_t total = 0;
    auto tooLarge = [&](const QString &what, std::int64_t limit) {
        return DocumentError(
            QStringLiteral("%1 is too large: %2 inflates to more than the limit of %3 MiB (a zip "
                           "bomb?)")
                .arg(label, what)
                .arg(limit >> 20));
    };
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        QuaZipFileInfo64 info;
        zip.getCurrentFileInfo(&info);
        // A name is a string: one with a NUL byte in it could not be written back (the zip
        // writer takes C strings), so the member would come back under another name.
        if (info.name.contains(QChar(0)))
            throw DocumentError(QStringLiteral("%1 is corrupt: the name of a member has a NUL "
                                               "byte ('%2')")
                                    .arg(label, info.name.left(info.name.indexOf(QChar(0)))));
        // A member named outside the archive's root ("../../x", "/etc/x", "C:\\x", "a\\..\\x")
        // is dropped: nothing here writes it to disk, but an exported document must not carry a
        // zip-slip path to the next tool that unpacks it. Word and LibreOffice never write one.
        if (!isSafeMemberName(info.name))
            continue;
        QuaZipFile file(&zip);
        if (!file.open(QIODevice::ReadOnly))
            throw DocumentError(QStringLiteral("%1 is corrupt: cannot read '%2' in it (error %3)")
                                    .arg(label, info.name)
                                    .arg(file.getZipError()));
        // Read in pieces and stop at the first byte over a limit: the sizes the archive declares
        // can lie, so they only reserve memory when they are within the limits.
        const QString member = QLatin1Char('\'') + info.name + QLatin1Char('\'');
        ZipEntry entry{info.name, {}, info.method == 0};
        if (info.uncompressedSize <= quint64(limits::kMaxZipMemberBytes))
            entry.data.reserve(qsizetype(info.uncompressedSize));
        char piece[1 << 16];
        for (qint64 n; (n = file.read(piece, sizeof piece)) > 0;) {
            if (entry.data.size() + n > limits::kMaxZipMemberBytes)
                throw tooLarge(member, limits::kMaxZipMemberBytes);
            total += n;
            if (total > limits::kMaxZipTotalBytes)
                throw tooLarge(QStringLiteral("the archive"), limits::kMaxZipTotalBytes);
            entry.data.append(piece, n);
        }
        if (file.getZipError() != UNZ_OK) {
            throw DocumentError(QStringLiteral("%1 is corrupt: '%2' in it is damaged (error %3)")
                                    .arg(label, info.name)
                                    .arg(file.getZipError()));
        }
        file.close();
        if (file.getZipError() != UNZ_OK) // CRC mismatch shows at close
            throw DocumentError(QStringLiteral("%1 is corrupt: '%2' in it fails its checksum")
                                    .arg(label, info.name));
        entries.push_back(std::move(entry));
    }
    if (zip.getZipError() != UNZ_OK)
        throw DocumentError(QStringLiteral("%1 is corrupt: its zip directory is damaged (error %2)")
                                .arg(label)
                                .arg(zip.getZipError()));
    return entries;
}

QByteArray writeZip(const std::vector<ZipEntry> &entries)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QuaZip zip(&buffer);
    if (!zip.open(QuaZip::mdCreate))
        throw DocumentError(
            QStringLiteral("cannot create a zip archive (error %1)").arg(zip.getZipError()));
    for (const ZipEntry &entry : entries) {
        QuaZipFile file(&zip);
        const QuaZipNewInfo info(entry.name);
        if (!file.open(QIODevice::WriteOnly, info, nullptr, 0, entry.stored ? 0 : Z_DEFLATED,
                       entry.stored ? 0 : Z_DEFAULT_COMPRESSION) ||
            file.write(entry.data) != entry.data.size())
            throw DocumentError(QStringLiteral("cannot write '%1' into the zip archive (error %2)")
                                    .arg(entry.name)
                                    .arg(file.getZipError()));
        file.close();
    }
    zip.close();
    if (zip.getZipError() != ZIP_OK)
        throw DocumentError(
            QStringLiteral("cannot finish the zip archive (error %1)").arg(zip.getZipError()));
    return bytes;
}

std::vector<ZipEntry> openArchive(const QByteArray &bytes, const QString &name)
{
    if (bytes.isEmpty())
        throw DocumentError(QStringLiteral("%1 is empty (0 bytes)").arg(name));
    if (bytes.startsWith("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"))
        throw DocumentError(QStringLiteral("%1 is password-protected (encrypted) or in an old "
                                           "binary format; save it without a password as .odt or "
                                           ".docx first")
                                .arg(name));
    return readZip(bytes, name);
}

const ZipEntry *findEntry(const std::vector<ZipEntry> &entries, const QString &name)
{
    for (const ZipEntry &entry : entries)
        if (entry.name == name)
            return &entry;
    return nullptr;
}

} // namespace glosa::documents
