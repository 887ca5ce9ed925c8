// PyTorch's legacy checkpoint format (before 1.6: a stream of pickles, then the storages' bytes),
// which older Hugging Face uploads hold as pytorch_model.bin, read by TorchCheckpoint
// (engine/import/torchcheckpoint.h) with the same whitelisted pickle machine as the zip format.
// tests/data/torch-legacy/tiny-legacy.bin was written by torch.save(...,
// _use_new_zipfile_serialization=False) (its make_legacy.py): float32, float16 and bfloat16
// tensors, a transposed view and two tensors sharing a storage. The damaged and hostile variants
// are made from it here. The parity of a whole legacy MarianMT checkpoint is in
// tests/parity/tst_parity_marian.cpp.
#include "engine/import/torchcheckpoint.h"
#include "tests/support/testutil.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace glosa;

namespace {

QString tinyPath()
{
    return test::testDataDir() + QStringLiteral("/torch-legacy/tiny-legacy.bin");
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QList<float> values(const engine::Tensor &t)
{
    return QList<float>(t.data<float>(), t.data<float>() + t.numel());
}

// The message of the PackageError reading every tensor of `bytes` throws ("" when none).
QString errorReading(const QByteArray &bytes)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("pytorch_model.bin"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return QStringLiteral("cannot write ") + path;
    file.close();
    try {
        const engine::TorchCheckpoint checkpoint(path.toStdString());
        for (const std::string &name : checkpoint.names())
            checkpoint.loadFloat(name);
    } catch (const engine::PackageError &error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

// Where the state dict's pickle starts: after the magic number, protocol and sys-info pickles
// (each ends with STOP, '.', followed by the next pickle's PROTO, 0x80 0x02).
qsizetype stateDictStart(const QByteArray &bytes)
{
    qsizetype at = 0;
    for (int pickle = 0; pickle < 3; ++pickle)
        at = bytes.indexOf(QByteArray(".\x80\x02", 3), at) + 1;
    return at;
}

} // namespace

class TestTorchLegacy : public QObject
{
    Q_OBJECT

private slots:
    void tensorsAreRead()
    {
        const engine::TorchCheckpoint checkpoint(tinyPath().toStdString());
        QCOMPARE(checkpoint.names(),
                 (std::vector<std::string>{"all", "bf16", "half", "tail", "w", "w_t"}));
        QCOMPARE(checkpoint.shape("w"), (engine::Shape{3, 4}));
        QCOMPARE(values(checkpoint.loadFloat("w")),
                 (QList<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
        QCOMPARE(checkpoint.shape("w_t"), (engine::Shape{4, 3}));
        QCOMPARE(values(checkpoint.loadFloat("w_t")),
                 (QList<float>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
        QCOMPARE(values(checkpoint.loadFloat("half")), (QList<float>{1.5f, -2.0f, 4.0f}));
        QCOMPARE(values(checkpoint.loadFloat("bf16")), (QList<float>{0.5f, 8.0f}));
        QCOMPARE(values(checkpoint.loadFloat("tail")), (QList<float>{2, 3, 4, 5}));
        QCOMPARE(values(checkpoint.loadFloat("all")), (QList<float>{0, 1, 2, 3, 4, 5}));
    }

    void damagedOrHostile_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const QByteArray tiny = readAll(tinyPath());
        QVERIFY(tiny.size() > 200);
        QTest::newRow("cut inside the last storage")
            << tiny.left(tiny.size() - 3) << "a truncated file?";
        // The storage keys' list is the last pickle; the storages follow it.
        const qsizetype storages = tiny.indexOf("e.", tiny.indexOf(QByteArray("\x80\x02]", 3))) + 2;
        QTest::newRow("cut after the pickles") << tiny.left(storages) << "is cut short";
        QByteArray wrongMagic = tiny;
        wrongMagic[5] = '\x00';
        QTest::newRow("not torch's magic number") << wrongMagic << "magic number";
        QByteArray bigEndian = tiny;
        bigEndian.replace(QByteArray("little_endianq\x02\x88", 16),
                          QByteArray("little_endianq\x02\x89", 16));
        QTest::newRow("written big-endian") << bigEndian << "big-endian";
        QByteArray version = tiny;
        version.replace(QByteArray("\x80\x02M\xe9\x03.", 6), QByteArray("\x80\x02M\xea\x03.", 6));
        QTest::newRow("another protocol version") << version << "protocol version 1002";
        // The state dict's pickle replaced by one that runs a shell command under pickle.load.
        const qsizetype start = stateDictStart(tiny);
        QByteArray hostile = tiny.left(start);
        static const char kSystem[] = "\x80\x02"
                                      "cos\nsystem\nq\x00X\x16\x00\x00\x00"
                                      "touch /tmp/glosa-pwned\x85R.";
        hostile += QByteArray(kSystem, sizeof kSystem - 1); // the pickle's 45 bytes, no more
        QTest::newRow("GLOBAL os.system") << hostile << "names the global 'os.system'";
        // A storage whose count claims more than the file holds.
        QByteArray huge = tiny;
        huge.replace(storages, 8, QByteArray("\xff\xff\xff\xff\xff\xff\x00\x00", 8));
        QTest::newRow("storage count past the end") << huge << "more than the";
    }
    void damagedOrHostile()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const QString error = errorReading(bytes);
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/glosa-pwned")));
    }
};

QTEST_GUILESS_MAIN(TestTorchLegacy)
#include "tst_torchlegacy.moc"
