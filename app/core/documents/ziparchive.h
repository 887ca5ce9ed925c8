// Zip archives in memory (QuaZip), for the office formats: read every entry, write them back in
// the same order with the same compression, replacing some.
#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

namespace glosa::documents {

struct ZipEntry
{
    QString name;
    QByteArray data;
    bool stored = false; // written uncompressed (ODF's "mimetype" must be)
};

// Throws DocumentError naming `label` when `bytes` is not a readable zip archive, or when a
// member or the whole archive inflates past limits::kMaxZipMemberBytes / kMaxZipTotalBytes.
// Members whose names leave the archive's root (isSafeMemberName) are left out.
std::vector<ZipEntry> readZip(const QByteArray &bytes, const QString &label);
// False for a member name that is absolute ("/x", "C:x") or climbs out ("../x", "a\\..\\..\\x").
bool isSafeMemberName(const QString &name);
// Throws DocumentError when QuaZip fails.
QByteArray writeZip(const std::vector<ZipEntry> &entries);

// readZip() for an office document (.odt, .docx), after the checks it needs first: not empty,
// not an encrypted (OLE) container, which Word and LibreOffice write for a password.
std::vector<ZipEntry> openArchive(const QByteArray &bytes, const QString &name);
// The entry called `name`, or null.
const ZipEntry *findEntry(const std::vector<ZipEntry> &entries, const QString &name);

} // namespace glosa::documents
