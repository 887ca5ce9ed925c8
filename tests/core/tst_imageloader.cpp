// loadRgbImage (app/core/inference/imageloader.h): every format the captioner accepts, EXIF orientation,
// alpha over white, grayscale and 16-bit, and the specific message for each broken file. All
// files are generated here (Qt writers, or hand-made bytes), none comes from the data folder.
#include "app/core/inference/imageloader.h"

#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <QTemporaryDir>
#include <QtTest>

using glosa::ImageLoadError;
using glosa::loadRgbImage;
using glosa::RgbImage;

namespace {

// Two frames of 4 x 3: red, then blue (written by PIL, 115 bytes).
const char kTwoFrameGif[] =
    "\x47\x49\x46\x38\x39\x61\x04\x00\x03\x00\x81\x00\x00\xff\x00\x00\x00\x00\x00\x00\x00\x00"
    "\x00\x00\x00\x21\xff\x0b\x4e\x45\x54\x53\x43\x41\x50\x45\x32\x2e\x30\x03\x01\x00\x00\x00"
    "\x21\xf9\x04\x00\x0a\x00\x00\x00\x2c\x00\x00\x00\x00\x04\x00\x03\x00\x00\x08\x08\x00\x01"
    "\x08\x1c\x48\x50\x60\x40\x00\x21\xf9\x04\x00\x0a\x00\x00\x00\x2c\x00\x00\x00\x00\x04\x00"
    "\x03\x00\x81\x00\x00\xff\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\x08\x00\x01\x08\x1c\x48"
    "\x50\x60\x40\x00\x3b";

// A 40 x 20 picture: left half red, right half blue, with a green top-left 4 x 4 corner, so that
// orientation is visible.
QImage pattern()
{
    QImage image(40, 20, QImage::Format_RGB32);
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 40; ++x)
            image.setPixel(x, y,
                           x < 4 && y < 4 ? qRgb(0, 255, 0)
                           : x < 20       ? qRgb(255, 0, 0)
                                          : qRgb(0, 0, 255));
    return image;
}

void writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

QByteArray readBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const std::uint8_t *pixel(const RgbImage &image, int x, int y)
{
    return image.pixels.data() + (std::size_t(y) * image.width + x) * 3;
}

// Whether a pixel is within `tolerance` of (r, g, b) (JPEG and WebP are lossy).
bool near(const RgbImage &image, int x, int y, int r, int g, int b, int tolerance)
{
    const std::uint8_t *p = pixel(image, x, y);
    return std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance &&
           std::abs(p[2] - b) <= tolerance;
}

} // namespace

class TestImageLoader : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void formats_data();
    void formats();
    void gifFirstFrame();
    void exifOrientation();
    void alphaOnWhite();
    void grayscaleAnd16Bit_data();
    void grayscaleAnd16Bit();
    void brokenFiles_data();
    void brokenFiles();

private:
    QTemporaryDir m_dir;
};

void TestImageLoader::formats_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("tolerance");
    QTest::newRow("png") << "png" << 0;
    QTest::newRow("bmp") << "bmp" << 0;
    QTest::newRow("jpg") << "jpg" << 40;
    QTest::newRow("webp") << "webp" << 40;
}

void TestImageLoader::formats()
{
    QFETCH(QString, format);
    QFETCH(int, tolerance);
    if (!QImageWriter::supportedImageFormats().contains(format.toLatin1()))
        QSKIP(qPrintable(QStringLiteral("no Qt image plugin writes %1 here (install "
                                        "qt6-image-formats-plugins for WebP)")
                             .arg(format)));
    const QString path = m_dir.filePath(QStringLiteral("pattern.") + format);
    QImageWriter writer(path);
    writer.setQuality(95);
    QVERIFY2(writer.write(pattern()), qPrintable(writer.errorString()));
    const RgbImage image = loadRgbImage(path);
    QCOMPARE(image.width, 40);
    QCOMPARE(image.height, 20);
    QCOMPARE(image.pixels.size(), std::size_t(40 * 20 * 3));
    QVERIFY(near(image, 1, 1, 0, 255, 0, tolerance));
    QVERIFY(near(image, 10, 15, 255, 0, 0, tolerance));
    QVERIFY(near(image, 35, 15, 0, 0, 255, tolerance));
}

void TestImageLoader::gifFirstFrame()
{
    const QString path = m_dir.filePath(QStringLiteral("two-frames.gif"));
    writeBytes(path, QByteArray(kTwoFrameGif, sizeof(kTwoFrameGif) - 1));
    const RgbImage image = loadRgbImage(path);
    QCOMPARE(image.width, 4);
    QCOMPARE(image.height, 3);
    QVERIFY(near(image, 0, 0, 255, 0, 0, 0)); // red: the first frame, not the blue second one
    QVERIFY(near(image, 3, 2, 255, 0, 0, 0));
}

void TestImageLoader::exifOrientation()
{
    // Qt's JPEG writer stores a transformation as the EXIF orientation tag; the pixels stay
    // 40 x 20 in the file, and a viewer shows them rotated to 20 x 40.
    const QString path = m_dir.filePath(QStringLiteral("rotated.jpg"));
    QImageWriter writer(path);
    writer.setQuality(95);
    writer.setTransformation(QImageIOHandler::TransformationRotate90);
    QVERIFY2(writer.write(pattern()), qPrintable(writer.errorString()));
    const RgbImage image = loadRgbImage(path);
    QCOMPARE(image.width, 20);
    QCOMPARE(image.height, 40);
    // Rotating 90° clockwise moves the top-left green corner to the top-right.
    QVERIFY(near(image, 18, 1, 0, 255, 0, 40));
    QVERIFY(!near(image, 1, 1, 0, 255, 0, 40));
}

void TestImageLoader::alphaOnWhite()
{
    QImage image(4, 1, QImage::Format_ARGB32);
    image.setPixel(0, 0, qRgba(255, 0, 0, 255)); // opaque red
    image.setPixel(1, 0, qRgba(0, 0, 0, 0));     // transparent "black": white, not black
    image.setPixel(2, 0, qRgba(0, 0, 255, 128)); // half-transparent blue over white
    image.setPixel(3, 0, qRgba(0, 0, 0, 64));
    const QString path = m_dir.filePath(QStringLiteral("alpha.png"));
    QVERIFY(image.save(path));
    const RgbImage rgb = loadRgbImage(path);
    QVERIFY(near(rgb, 0, 0, 255, 0, 0, 0));
    QVERIFY(near(rgb, 1, 0, 255, 255, 255, 0));
    QVERIFY(near(rgb, 2, 0, 127, 127, 255, 1));
    QVERIFY(near(rgb, 3, 0, 191, 191, 191, 1));
}

void TestImageLoader::grayscaleAnd16Bit_data()
{
    QTest::addColumn<int>("format");
    QTest::newRow("grayscale 8") << int(QImage::Format_Grayscale8);
    QTest::newRow("grayscale 16") << int(QImage::Format_Grayscale16);
    QTest::newRow("RGBA 16 bits per channel") << int(QImage::Format_RGBA64);
    QTest::newRow("indexed 8") << int(QImage::Format_Indexed8);
}

void TestImageLoader::grayscaleAnd16Bit()
{
    QFETCH(int, format);
    QImage gray(3, 2, QImage::Format_RGB32);
    for (int x = 0; x < 3; ++x)
        for (int y = 0; y < 2; ++y)
            gray.setPixel(x, y, qRgb(x * 100, x * 100, x * 100));
    const QImage converted = gray.convertToFormat(QImage::Format(format));
    const QString path = m_dir.filePath(QStringLiteral("gray-%1.png").arg(format));
    QVERIFY(converted.save(path));
    const RgbImage rgb = loadRgbImage(path);
    QCOMPARE(rgb.width, 3);
    QCOMPARE(rgb.height, 2);
    for (int x = 0; x < 3; ++x)
        QVERIFY2(near(rgb, x, 1, x * 100, x * 100, x * 100, 1),
                 qPrintable(QStringLiteral("pixel %1: %2 %3 %4")
                                .arg(x)
                                .arg(pixel(rgb, x, 1)[0])
                                .arg(pixel(rgb, x, 1)[1])
                                .arg(pixel(rgb, x, 1)[2])));
}

void TestImageLoader::brokenFiles_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << "missing"
                             << "no such file";
    QTest::newRow("empty") << "empty"
                           << "the file is empty";
    QTest::newRow("text") << "text"
                          << "not an image Qt can read";
    QTest::newRow("truncated jpeg") << "truncated-jpg"
                                    << "truncated";
    QTest::newRow("truncated png") << "truncated-png"
                                   << "png";
    QTest::newRow("corrupt png header") << "corrupt-png"
                                        << "png";
    QTest::newRow("too many pixels") << "large"
                                     << "more than the limit of 100";
    QTest::newRow("folder") << "folder"
                            << "not a file";
}

void TestImageLoader::brokenFiles()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QString path = m_dir.filePath(QStringLiteral("broken-") + kind);
    std::int64_t limit = glosa::limits::kMaxImagePixels;
    if (kind == QLatin1String("empty")) {
        writeBytes(path, {});
    } else if (kind == QLatin1String("text")) {
        path += QStringLiteral(".jpg"); // the extension lies; the content decides
        writeBytes(path, "this is a caption, not a picture\n");
    } else if (kind == QLatin1String("truncated-jpg") || kind == QLatin1String("truncated-png")) {
        const QString format = kind.mid(10);
        const QString whole = m_dir.filePath(QStringLiteral("whole.") + format);
        QImage big(200, 150, QImage::Format_RGB32);
        for (int y = 0; y < 150; ++y)
            for (int x = 0; x < 200; ++x)
                big.setPixel(x, y, qRgb(x, y, (x * y) % 256));
        QVERIFY(big.save(whole));
        const QByteArray bytes = readBytes(whole);
        path += QStringLiteral(".") + format;
        writeBytes(path, bytes.left(bytes.size() / 2));
    } else if (kind == QLatin1String("corrupt-png")) {
        const QString whole = m_dir.filePath(QStringLiteral("whole-small.png"));
        QVERIFY(pattern().save(whole));
        QByteArray bytes = readBytes(whole);
        for (int i = 16; i < 24; ++i) // width and height in IHDR, and its CRC no longer matches
            bytes[i] = char(0xFF);
        path += QStringLiteral(".png");
        writeBytes(path, bytes);
    } else if (kind == QLatin1String("large")) {
        path += QStringLiteral(".png");
        QVERIFY(pattern().save(path)); // 800 pixels
        limit = 100;
    } else if (kind == QLatin1String("folder")) {
        path = m_dir.path();
    }
    try {
        loadRgbImage(path, limit);
        QFAIL("no ImageLoadError");
    } catch (const ImageLoadError &e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.startsWith(path), qPrintable(what));
        QVERIFY2(what.contains(message, Qt::CaseInsensitive), qPrintable(what));
    }
}

QTEST_APPLESS_MAIN(TestImageLoader)
#include "tst_imageloader.moc"
