#include "app/core/inference/imageloader.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <sys/stat.h>

namespace glosa {

namespace {

[[noreturn]] void fail(const QString &path, const QString &reason)
{
    throw ImageLoadError(QStringLiteral("%1: %2").arg(path, reason).toStdString());
}

// Whether the file ends the way a complete file of this format must. libjpeg (and so Qt) returns
// a truncated JPEG as a picture whose missing rows are grey, with only a warning on stderr, so
// completeness is checked from the bytes: JPEG ends with the EOI marker FF D9, PNG with the IEND
// chunk. A little trailing padding after the marker is tolerated (some cameras append zeros).
bool endsComplete(const QString &path, const QByteArray &format)
{
    if (format != "jpeg" && format != "jpg" && format != "png")
        return true; // the other decoders report truncation themselves (see tst_imageloader)
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const qint64 tail = std::min<qint64>(file.size(), 1024);
    file.seek(file.size() - tail);
    const QByteArray end = file.read(tail);
    if (format == "png")
        return end.contains(QByteArrayLiteral("IEND"));
    return end.contains(QByteArrayLiteral("\xFF\xD9"));
}

} // namespace

RgbImage loadRgbImage(const QString &path, std::int64_t maxPixels)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        // The system's reason: a name over 255 bytes is "File name too long", not missing.
        struct stat status{};
        const int error = ::stat(QFile::encodeName(path).constData(), &status) == 0 ? 0 : errno;
        fail(path, error == ENOENT || error == 0 ? QStringLiteral("no such file")
                                                : QString::fromLocal8Bit(std::strerror(error)));
    }
    if (!info.isFile())
        fail(path, QStringLiteral("not a file"));
    if (info.size() == 0)
        fail(path, QStringLiteral("the file is empty"));
    QImageReader reader(path);
    reader.setDecideFormatFromContent(true); // a .jpg that is really a PNG still loads
    reader.setAutoTransform(true);           // EXIF orientation
    if (!reader.canRead())
        fail(path, QStringLiteral("not an image Qt can read (%1); supported formats: %2")
                       .arg(reader.errorString(),
                            QString::fromLatin1(QImageReader::supportedImageFormats().join(", "))));
    const QByteArray format = reader.format();
    const QSize header = reader.size();
    if (header.isValid() &&
        std::int64_t(header.width()) * std::int64_t(header.height()) > maxPixels)
        fail(path, QStringLiteral("the image is %1 x %2 = %3 pixels, more than the limit of %4")
                       .arg(header.width())
                       .arg(header.height())
                       .arg(std::int64_t(header.width()) * header.height())
                       .arg(maxPixels));
    // Qt refuses to allocate more than 256 MB for a decoded image by default, which a 16-bit
    // RGBA image under the pixel limit exceeds (6000 x 6000 x 8 bytes = 288 MB) with a vague
    // "corrupt" error. Our limit is the real one: allow 8 bytes a pixel up to it.
    reader.setAllocationLimit(int(std::min<std::int64_t>(maxPixels * 8 / (1 << 20) + 1, 1 << 20)));
    QImage image = reader.read(); // the first frame of an animation
    if (image.isNull())
        fail(path, QStringLiteral("cannot decode the %1 image (truncated or corrupt?): %2")
                       .arg(QString::fromLatin1(format), reader.errorString()));
    if (std::int64_t(image.width()) * std::int64_t(image.height()) > maxPixels)
        fail(path, QStringLiteral("the image is %1 x %2 = %3 pixels, more than the limit of %4")
                       .arg(image.width())
                       .arg(image.height())
                       .arg(std::int64_t(image.width()) * image.height())
                       .arg(maxPixels));
    if (!endsComplete(path, format))
        fail(path, QStringLiteral("the %1 file is truncated (its end marker is missing)")
                       .arg(QString::fromLatin1(format)));

    RgbImage out;
    out.width = image.width();
    out.height = image.height();
    out.pixels.resize(std::size_t(out.width) * out.height * 3);
    if (image.hasAlphaChannel()) {
        // Premultiplied 8-bit ARGB: over white, each channel is c + (255 - a).
        const QImage argb = image.convertToFormat(QImage::Format_ARGB32_Premultiplied);
        for (int y = 0; y < out.height; ++y) {
            const auto *line = reinterpret_cast<const QRgb *>(argb.constScanLine(y));
            std::uint8_t *dst = out.pixels.data() + std::size_t(y) * out.width * 3;
            for (int x = 0; x < out.width; ++x) {
                const QRgb p = line[x];
                const int white = 255 - qAlpha(p);
                dst[3 * x] = std::uint8_t(std::min(255, qRed(p) + white));
                dst[3 * x + 1] = std::uint8_t(std::min(255, qGreen(p) + white));
                dst[3 * x + 2] = std::uint8_t(std::min(255, qBlue(p) + white));
            }
        }
    } else {
        // Grayscale8/16, indexed, RGB16/RGBX64/float formats: Qt converts to 8-bit RGB.
        const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
        for (int y = 0; y < out.height; ++y)
            std::memcpy(out.pixels.data() + std::size_t(y) * out.width * 3, rgb.constScanLine(y),
                        std::size_t(out.width) * 3); // scanlines are padded to 4 bytes
    }
    return out;
}

QImage toQImage(const RgbImage &image)
{
    return QImage(image.pixels.data(), image.width, image.height, image.width * 3,
                  QImage::Format_RGB888)
        .copy();
}

} // namespace glosa
