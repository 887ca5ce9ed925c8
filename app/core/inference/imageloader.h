// Image loading for the captioner (the engine is Qt-free, so pixels come from here): any file
// QImageReader decodes - JPEG, PNG, WebP (with qt6-image-formats-plugins), BMP, the first frame
// of a GIF - as 8-bit RGB, ready for engine::CaptioningModel::caption().
//
// Basic usage:
//     glosa::RgbImage image = glosa::loadRgbImage(path);   // throws glosa::ImageLoadError
//     model->caption(image.pixels.data(), image.width, image.height, options);
//
// What it does to the pixels, and why:
//   - EXIF orientation is applied (QImageReader::setAutoTransform): a phone photo taken in
//     portrait is captioned the way people see it;
//   - transparency is composited over white (what a viewer shows for a logo or a screenshot with
//     alpha), not dropped to whatever colour the transparent pixels happen to store;
//   - grayscale, indexed, 16-bit-per-channel and float images are converted to 8-bit RGB.
// What it refuses, with a message naming the file and the reason (ImageLoadError):
//   - a missing or unreadable file, an empty file, a file that is not an image Qt can read;
//   - a truncated or corrupt image (decoders that return a partial picture - libjpeg fills the
//     missing rows with grey - are caught by checking the file's end marker);
//   - an image with more than maxPixels pixels (checked from the header before decoding, so a
//     "decompression bomb" never allocates its pixels).
#pragma once

#include "app/core/limits.h"

#include <QImage>
#include <QString>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace glosa {

class ImageLoadError : public std::runtime_error
{
public:
    explicit ImageLoadError(const std::string &message) : std::runtime_error(message) {}
};

struct RgbImage
{
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels; // [height, width, 3] row-major, no row padding
};

// Throws ImageLoadError; see above. The default limit, 50 megapixels, is larger than any camera
// photo people caption and small enough that the decoded buffer cannot exhaust memory.
RgbImage loadRgbImage(const QString &path, std::int64_t maxPixels = limits::kMaxImagePixels);

// The same pixels as a QImage (Format_RGB888, its own copy), for the views' overlays.
QImage toQImage(const RgbImage &image);

} // namespace glosa
