// File names that are not UTF-8 (a Latin-1 name from an old archive or disk). Qt decodes every
// argument as UTF-8 and turns such bytes into U+FFFD, a name no file has ("No such file"), and
// Qt 6 has no way to open a file by bytes it cannot decode. So for an argument that names an
// existing file or folder by its bytes, a symbolic link with the escaped name ("caf\xe9.txt",
// valid UTF-8, the suffix kept for the format) is made in a private temporary folder, pointing
// at those bytes, and passed on instead; Qt opens it like any path. Messages print the argument
// escaped in its place. The links go when glosa-cli ends.
//
// Basic usage (glosa-cli's main):
//     const glosa::cli::ByteNames names(argc, argv);
//     QStringList args = names.arguments();  // "/tmp/glosa-names-x/1/caf\xe9.txt" for caf\xe9.txt
//     glosa::cli::ByteNameEscaper device(names);
//     QTextStream err(&device);               // prints "caf\xe9.txt" for that link
#pragma once

#include <QByteArray>
#include <QIODevice>
#include <QList>
#include <QStringList>

#include <utility>

namespace glosa::cli {

// `bytes` with every byte that does not start a well-formed UTF-8 character written as \xHH.
QString escapedFileName(const QByteArray &bytes);

class ByteNames
{
public:
    ByteNames(int argc, char **argv);
    ~ByteNames(); // removes the links and their folder
    ByteNames(const ByteNames &) = delete;
    ByteNames &operator=(const ByteNames &) = delete;

    QStringList arguments() const { return m_arguments; }
    // `text` with every link made here replaced by the argument it stands for, escaped.
    QByteArray shown(QByteArray text) const;

    // Whether `path` is such a link: nothing can be named beside it (translate-doc's default
    // OUT), since its folder is the temporary one.
    static bool isLink(const QString &path);

private:
    QByteArray m_folder; // the private temporary folder, empty when none was needed
    QStringList m_arguments;
    QList<std::pair<QByteArray, QByteArray>> m_shown; // the link, the escaped argument
};

// stderr through ByteNames::shown().
class ByteNameEscaper : public QIODevice
{
public:
    explicit ByteNameEscaper(const ByteNames &names);

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 size) override;

private:
    const ByteNames &m_names;
};

} // namespace glosa::cli
