// FileWriter, the one writer of files the program names itself (package weights, staged import
// files, partial downloads): truncating and appending, the errno of a failure, no symbolic links.
#include "engine/regularfile.h"

#include <QtTest>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace glosa::engine;

namespace {

std::string contents(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    return all.str();
}

void writeText(FileWriter &out, const std::string &text)
{
    out.write(text.data(), text.size());
}

} // namespace

class TestFileWriter : public QObject
{
    Q_OBJECT
private slots:
    void truncatesThenAppendContinues()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("part").toStdString();
        {
            FileWriter out(path);
            writeText(out, "old contents");
            QVERIFY(out.finish().empty());
        }
        {
            FileWriter out(path);
            writeText(out, "abc");
            QCOMPARE(out.size(), 3u);
            QVERIFY(out.finish().empty());
        }
        FileWriter more(path, FileWriter::Mode::Append);
        QVERIFY(more.ok());
        QCOMPARE(more.size(), 3u); // the length already there
        writeText(more, "defg");
        QCOMPARE(more.size(), 7u);
        QVERIFY(more.finish().empty());
        QCOMPARE(contents(path), std::string("abcdefg"));
    }

    void appendCreatesAMissingFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("new").toStdString();
        FileWriter out(path, FileWriter::Mode::Append);
        QVERIFY(out.ok());
        QCOMPARE(out.size(), 0u);
        writeText(out, "x");
        QVERIFY(out.finish().empty());
        QCOMPARE(contents(path), std::string("x"));
    }

    void neverFollowsASymbolicLink()
    {
        QTemporaryDir dir;
        const std::string target = dir.filePath("victim").toStdString();
        const std::string link = dir.filePath("link").toStdString();
        std::ofstream(target) << "keep me";
        QCOMPARE(::symlink(target.c_str(), link.c_str()), 0);
        for (const auto mode : {FileWriter::Mode::Truncate, FileWriter::Mode::Append}) {
            FileWriter out(link, mode);
            QVERIFY(!out.ok());
            QCOMPARE(out.errorNumber(), ELOOP);
            writeText(out, "overwritten");
            QVERIFY(!out.finish().empty());
        }
        QCOMPARE(contents(target), std::string("keep me"));
    }

    void appendRefusesAFifo()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("fifo").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        // A FIFO with no reader: a blocking open for writing would hang, so the read end is
        // opened first; the writer must then refuse it as not a regular file.
        const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
        QVERIFY(reader >= 0);
        FileWriter out(fifo, FileWriter::Mode::Append);
        QVERIFY(!out.ok());
        QCOMPARE(QString::fromStdString(out.error()),
                 QStringLiteral("cannot write: not a regular file"));
        ::close(reader);
    }

    void aFullDiskGivesItsErrno()
    {
        if (::access("/dev/full", W_OK) != 0)
            QSKIP("/dev/full is not writable here");
        FileWriter out("/dev/full", FileWriter::Mode::Truncate);
        QVERIFY(out.ok());
        writeText(out, std::string(4096, 'x'));
        QCOMPARE(out.errorNumber(), ENOSPC);
        QCOMPARE(QString::fromStdString(out.finish()),
                 QStringLiteral("cannot write: ") + QString::fromLocal8Bit(std::strerror(ENOSPC)));
    }
};

QTEST_GUILESS_MAIN(TestFileWriter)
#include "tst_filewriter.moc"
